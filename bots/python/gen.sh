#!/bin/sh
# gen.sh regenerates the Python protobuf and gRPC code under bots/python/orrery/ from proto/.
#
#   bots/python/gen.sh            regenerate in place (commit the result)
#   bots/python/gen.sh OUT_DIR    write into OUT_DIR instead (check_gen.sh uses this)
#
# It uses Debian 12's protoc and gRPC plugin, the same release as the python3-protobuf and
# python3-grpcio runtimes: code from a newer protoc does not run on an older runtime.
#   apt-get install -y protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here}
# ORRERY_PROTO_DIR reads the .proto files from elsewhere (say, an export of one commit).
protos=${ORRERY_PROTO_DIR:-$root/proto}
want="libprotoc 3.21.12"

for tool in protoc grpc_python_plugin; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "gen.sh: $tool not found; run: apt-get install -y protobuf-compiler protobuf-compiler-grpc libprotobuf-dev" >&2
		exit 2
	fi
done
if [ ! -f /usr/include/google/protobuf/duration.proto ]; then
	echo "gen.sh: the well-known .proto files are missing; run: apt-get install -y libprotobuf-dev" >&2
	exit 2
fi
got=$(protoc --version)
if [ "$got" != "$want" ] && [ -z "${ORRERY_ANY_PROTOC:-}" ]; then
	echo "gen.sh: protoc is '$got', the committed code comes from '$want' (Debian 12);" >&2
	echo "        set ORRERY_ANY_PROTOC=1 to generate anyway (the output will differ)" >&2
	exit 2
fi

mkdir -p "$out"
rm -rf "$out/orrery"
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cd "$protos"
# Every message file, then gRPC stubs for the files that declare a service.
files=$(find orrery -name '*.proto' | LC_ALL=C sort)
protoc -I . -I /usr/include --python_out="$out" --pyi_out="$out" $files
services=$(grep -l '^service ' $files)
protoc -I . -I /usr/include --plugin=protoc-gen-grpc_python="$(command -v grpc_python_plugin)" \
	--grpc_python_out="$out" $services
