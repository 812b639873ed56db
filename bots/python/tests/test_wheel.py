"""The in-tree build backend (build_backend/orrery_wheel.py): what pip install gets.

Run from bots/python: /usr/bin/python3 -m unittest discover -s tests
"""

import base64
import hashlib
import os
import shutil
import sys
import tarfile
import tempfile
import unittest
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build_backend"))
import orrery_wheel  # noqa: E402


class Wheel(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def test_needs_nothing_to_build(self):
        self.assertEqual(orrery_wheel.get_requires_for_build_wheel(), [])
        self.assertEqual(orrery_wheel.get_requires_for_build_sdist(), [])

    def test_wheel_holds_the_client_the_generated_code_and_the_command(self):
        name = orrery_wheel.build_wheel(self.dir)
        self.assertEqual(name, "orrery_bot-0.1.0-py3-none-any.whl")
        with zipfile.ZipFile(os.path.join(self.dir, name)) as whl:
            names = set(whl.namelist())
            for want in ("orrery_bot/__main__.py", "orrery_bot/client.py", "orrery/v1/arena_pb2.py",
                         "orrery/v1/arena_pb2_grpc.py", "orrery/planet/v1/planet_pb2.py"):
                self.assertIn(want, names)
            self.assertFalse([n for n in names if "__pycache__" in n or n.endswith(".pyc")])
            info = "orrery_bot-0.1.0.dist-info"
            meta = whl.read(f"{info}/METADATA").decode()
            self.assertIn("Name: orrery-bot\n", meta)
            self.assertIn("Requires-Dist: grpcio>=1.51\n", meta)
            self.assertIn("Requires-Dist: protobuf>=3.21\n", meta)
            self.assertIn("orrery-bot = orrery_bot.__main__:main", whl.read(f"{info}/entry_points.txt").decode())
            # RECORD lists every other file with its hash and size.
            record = {}
            for line in whl.read(f"{info}/RECORD").decode().splitlines():
                path, digest, size = line.rsplit(",", 2)
                record[path] = (digest, size)
            self.assertEqual(set(record), names)
            for path in names - {f"{info}/RECORD"}:
                data = whl.read(path)
                digest = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(record[path], (digest, str(len(data))), path)

    def test_same_sources_same_wheel(self):
        a = orrery_wheel.build_wheel(self.dir)
        with open(os.path.join(self.dir, a), "rb") as f:
            first = f.read()
        os.remove(os.path.join(self.dir, a))
        orrery_wheel.build_wheel(self.dir)
        with open(os.path.join(self.dir, a), "rb") as f:
            self.assertEqual(f.read(), first)

    def test_sdist_builds_again(self):
        name = orrery_wheel.build_sdist(self.dir)
        with tarfile.open(os.path.join(self.dir, name)) as tar:
            names = set(tar.getnames())
        for want in ("orrery_bot-0.1.0/pyproject.toml", "orrery_bot-0.1.0/build_backend/orrery_wheel.py",
                     "orrery_bot-0.1.0/PKG-INFO", "orrery_bot-0.1.0/orrery_bot/__main__.py",
                     "orrery_bot-0.1.0/orrery/v1/arena_pb2.py"):
            self.assertIn(want, names)

    def test_editable_points_at_the_checkout(self):
        name = orrery_wheel.build_editable(self.dir)
        with zipfile.ZipFile(os.path.join(self.dir, name)) as whl:
            pth = [n for n in whl.namelist() if n.endswith(".pth")]
            self.assertEqual(len(pth), 1)
            self.assertEqual(whl.read(pth[0]).decode().strip(), orrery_wheel.HERE)


if __name__ == "__main__":
    unittest.main()
