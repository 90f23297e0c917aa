#!/usr/bin/env bash
# Vendors three.js from the npm registry at the pinned version: the two
# files of its ES module build, the orbit controls of its examples and its
# licence, unchanged, into view/assets/three. Run it by hand to upgrade
# (change VERSION below), then check the page in a browser and run the
# browser test (go test ./cmd/collide -run View).
set -euo pipefail
VERSION=0.187.0
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "three@$VERSION" >/dev/null && tar xzf "three-$VERSION.tgz")
p="$tmp/package"
cp "$p/build/three.module.js" "$p/build/three.core.js" \
   "$p/examples/jsm/controls/OrbitControls.js" "$p/LICENSE" three/
echo "three $VERSION, from the npm registry (view/assets/vendor.sh)" > three/VERSION
(cd three && sha256sum three.module.js three.core.js OrbitControls.js LICENSE > SHA256SUMS)
