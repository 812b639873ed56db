#!/bin/sh
# build.sh compiles the Java bot into bots/java/build/orrery-bot.jar from proto/ and src/, with
# Debian 12's protoc, gRPC Java plugin and jars (nothing from Maven Central):
#   apt-get install -y default-jdk-headless protobuf-compiler libprotobuf-java libgrpc-java \
#     protobuf-compiler-grpc-java-plugin libnetty-java libperfmark-java libgoogle-gson-java
# Run it as: java -jar bots/java/build/orrery-bot.jar [--server ADDR] play (see README.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
protos=${ORRERY_PROTO_DIR:-$root/proto}
build=$here/build
jars=/usr/share/java
# The runtime classpath: protobuf, gRPC over Netty, and what they load (Guava, PerfMark, Gson
# for the service config, the annotations the generated code carries).
classpath="protobuf grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub
  guava perfmark-api gson error-prone-annotations geronimo-annotation-1.3-spec
  netty-buffer netty-codec netty-codec-http netty-codec-http2 netty-codec-socks netty-common
  netty-handler netty-handler-proxy netty-resolver netty-transport"

for tool in protoc grpc_java_plugin javac jar; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "build.sh: $tool not found; install the packages listed at the top of bots/java/build.sh" >&2
		exit 2
	fi
done
cp=""
for j in $classpath; do
	if [ ! -f "$jars/$j.jar" ]; then
		echo "build.sh: $jars/$j.jar is missing; install the packages listed at the top of bots/java/build.sh" >&2
		exit 2
	fi
	cp="$cp${cp:+:}$jars/$j.jar"
done

rm -rf "$build"
mkdir -p "$build/gen" "$build/classes"
# Every .proto under proto/, the well-known types from libprotobuf-dev's /usr/include (or
# protoc's own, where it has them built in).
files=$(cd "$protos" && find . -name '*.proto' | sed 's|^\./||' | sort)
(cd "$protos" && protoc -I . -I /usr/include --java_out="$build/gen" \
	--plugin=protoc-gen-grpc-java="$(command -v grpc_java_plugin)" --grpc-java_out="$build/gen" $files) 2>"$build/protoc.log" || {
	cat "$build/protoc.log" >&2
	exit 1
}
# protoc warns that Decision's "legal" and "legal_count" both want getLegalCount(), and renames
# them getLegal5List()/getLegal5Count() and getLegalCount12(): expected, not printed.
javac -nowarn -encoding UTF-8 -d "$build/classes" -cp "$cp" $(find "$build/gen" "$here/src" -name '*.java')
# The jar names its classpath (Debian's jars by absolute path), so `java -jar` needs no -cp. A
# manifest line holds at most 72 bytes; a longer one goes on in lines that start with a space.
{
	echo "Main-Class: orrery.bot.Bot"
	echo "Class-Path: $(echo "$cp" | tr ':' ' ')" | fold -b -w 70 | sed '1!s/^/ /'
} >"$build/manifest.txt"
jar --create --file "$build/orrery-bot.jar" --manifest "$build/manifest.txt" -C "$build/classes" .
echo "build.sh: built $build/orrery-bot.jar"
