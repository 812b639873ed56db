"""A PEP 517 build backend for orrery-bot that needs nothing but Python's standard library.

`pip install ./bots/python` builds in an isolated environment with the backend's
requirements installed from the package index; setuptools' would be fetched, and offline pip
retries the index for half a minute and fails. This backend has no requirements, so the build
never reaches for the index: offline it takes a second, and the runtime dependencies (grpcio,
protobuf) are the only thing pip looks for, which Debian's python3-grpcio and
python3-protobuf satisfy in a venv made with --system-site-packages.

It builds one pure-Python wheel of the packages named in pyproject.toml's
[tool.orrery-wheel] (their .py and .pyi files), with the [project] table's metadata and
console scripts; an sdist of the sources; and an editable wheel that points at this checkout.
"""

import base64
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bots/python
STAMP = (2026, 1, 1, 0, 0, 0)  # every file's date in the archives, so builds are reproducible


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        doc = tomllib.load(f)
    return doc["project"], doc["tool"]["orrery-wheel"]


def _names(project):
    dist = project["name"].replace("-", "_")
    return dist, project["version"], f"{dist}-{project['version']}.dist-info"


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project.get('description', '')}", f"Requires-Python: {project.get('requires-python', '')}"]
    if "license" in project:
        lines.append(f"License: {project['license'].get('text', '')}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    body = ""
    if "readme" in project:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(HERE, project["readme"]), encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def _dist_info(project):
    """The .dist-info files but RECORD, by name."""
    scripts = project.get("scripts", {})
    files = {"METADATA": _metadata(project),
             "WHEEL": "Wheel-Version: 1.0\nGenerator: orrery_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    if scripts:
        files["entry_points.txt"] = "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items())
    return files


def _sources(tool):
    """The packages' .py and .pyi files as (path in the wheel, path on disk), sorted."""
    out = []
    for pkg in tool["packages"]:
        for root, dirs, files in os.walk(os.path.join(HERE, pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".pyi")):
                    disk = os.path.join(root, name)
                    out.append((os.path.relpath(disk, HERE).replace(os.sep, "/"), disk))
    return out


def _wheel(wheel_directory, contents):
    """Writes a wheel of contents ({path: bytes}, dist-info included) with its RECORD."""
    project, _ = _project()
    dist, version, info = _names(project)
    name = f"{dist}-{version}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in contents.items():
            whl.writestr(zipfile.ZipInfo(path, STAMP), data, zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        record.append(f"{info}/RECORD,,")
        whl.writestr(zipfile.ZipInfo(f"{info}/RECORD", STAMP), "\n".join(record) + "\n", zipfile.ZIP_DEFLATED)
    return name


def _info_contents(project):
    _, _, info = _names(project)
    return {f"{info}/{k}": v.encode() for k, v in _dist_info(project).items()}


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_editable = get_requires_for_build_sdist = get_requires_for_build_wheel


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project, _ = _project()
    _, _, info = _names(project)
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for k, v in _dist_info(project).items():
        with open(os.path.join(metadata_directory, info, k), "w", encoding="utf-8") as f:
            f.write(v)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project, tool = _project()
    contents = {}
    for path, disk in _sources(tool):
        with open(disk, "rb") as f:
            contents[path] = f.read()
    contents.update(_info_contents(project))
    return _wheel(wheel_directory, contents)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    project, _ = _project()
    dist, _, _ = _names(project)
    contents = {f"_{dist}_editable.pth": (HERE + "\n").encode()}  # the checkout on sys.path
    contents.update(_info_contents(project))
    return _wheel(wheel_directory, contents)


def build_sdist(sdist_directory, config_settings=None):
    project, tool = _project()
    dist, version, _ = _names(project)
    base = f"{dist}-{version}"
    name = f"{base}.tar.gz"
    files = [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
             ("build_backend/orrery_wheel.py", os.path.abspath(__file__))]
    if "readme" in project:
        files.append((project["readme"], os.path.join(HERE, project["readme"])))
    files += _sources(tool)
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata(project).encode()
        entries = [("PKG-INFO", pkg_info)] + [(p, open(d, "rb").read()) for p, d in files]
        for path, data in entries:
            ti = tarfile.TarInfo(f"{base}/{path}")
            ti.size, ti.mtime, ti.mode = len(data), 1767225600, 0o644
            tar.addfile(ti, io.BytesIO(data))
    return name
