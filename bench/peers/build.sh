#!/usr/bin/env bash
# build.sh builds collide-peers, the C++ driver that runs peer collision
# libraries (FCL, OPCODE, ODE, Bullet) for `collide bench --peers`, into
# bench/peers/build/collide-peers, from Debian (bookworm) packages.
#
#   bench/peers/build.sh [--no-install]
#
# 1. Installs the packages with apt-get when a pkg-config module is missing
#    (skipped with --no-install; uses sudo when not root).
# 2. Fetches ODE's source tarball (Debian's orig tarball, checked against its
#    sha256) for the OPCODE headers, which no package ships; libode contains
#    the OPCODE code itself. Without the tarball the opcode systems are left
#    out.
# 3. Compiles every peer whose library is available and links the driver.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$(pwd)

install=1
for arg in "$@"; do
    case "$arg" in
    --no-install) install=0 ;;
    -h | --help)
        sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "build.sh: unknown argument $arg (usage: build.sh [--no-install])" >&2
        exit 2
        ;;
    esac
done

CXX=${CXX:-g++}
modules=(fcl ode bullet)
packages=(g++ pkg-config curl ca-certificates libfcl-dev libode-dev libbullet-dev)

ode_version=0.16.2
ode_tarball=ode_${ode_version}.orig.tar.gz
ode_url=http://deb.debian.org/debian/pool/main/o/ode/$ode_tarball
ode_sha256=b26aebdcb015e2d89720ef48e0cb2e8a3ca77915f89d853893e7cc861f810f22

warn() { echo "build.sh: warning: $*" >&2; }

# have_module reports whether pkg-config knows the module.
have_module() { command -v pkg-config >/dev/null && pkg-config --exists "$1"; }

# --- 1. packages -------------------------------------------------------------
missing=0
command -v "$CXX" >/dev/null || missing=1
for m in "${modules[@]}"; do have_module "$m" || missing=1; done
if [[ ! -f build/$ode_tarball ]] && ! command -v curl >/dev/null; then missing=1; fi
if [[ $missing == 1 && $install == 1 ]]; then
    sudo=()
    if [[ $(id -u) != 0 ]]; then
        if command -v sudo >/dev/null; then
            sudo=(sudo)
        else
            warn "not root and no sudo: cannot install ${packages[*]}"
        fi
    fi
    if [[ $(id -u) == 0 || ${#sudo[@]} -gt 0 ]]; then
        echo "build.sh: installing ${packages[*]}" >&2
        "${sudo[@]}" apt-get update
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y --no-install-recommends "${packages[@]}"
    fi
fi
command -v "$CXX" >/dev/null || { echo "build.sh: no C++ compiler ($CXX)" >&2; exit 1; }

mkdir -p build/obj

# --- 2. OPCODE headers -------------------------------------------------------
# tarball_ok reports whether the tarball is there with the right checksum.
tarball_ok() {
    [[ -f build/$ode_tarball ]] && echo "$ode_sha256  build/$ode_tarball" | sha256sum --check --status -
}

opcode_dir=
if have_module ode; then
    if ! tarball_ok; then
        rm -f "build/$ode_tarball" "build/$ode_tarball.part"
        echo "build.sh: fetching $ode_url" >&2
        if command -v curl >/dev/null &&
            curl -fsSL --retry 2 -o "build/$ode_tarball.part" "$ode_url"; then
            mv "build/$ode_tarball.part" "build/$ode_tarball"
        else
            rm -f "build/$ode_tarball.part"
        fi
    fi
    if tarball_ok; then
        if [[ ! -f build/ode-$ode_version/OPCODE/Opcode.h ]]; then
            rm -rf "build/ode-$ode_version"
            tar -xzf "build/$ode_tarball" -C build "ode-$ode_version/OPCODE"
        fi
        opcode_dir=$here/build/ode-$ode_version/OPCODE
    else
        rm -f "build/$ode_tarball"
        warn "could not fetch $ode_tarball (or its sha256 is wrong): building without the opcode systems"
    fi
fi

# --- 3. compile --------------------------------------------------------------
cxxflags=(-O2 -std=c++17 -Wall -Wextra)

# cflags prints the compile flags of the pkg-config modules, with their
# include directories as system ones (no warnings from library headers) and
# without their -std (ours is C++17).
cflags() {
    local f
    local flags
    read -ra flags <<<"$(pkg-config --cflags "$@")"
    for f in "${flags[@]}"; do
        case "$f" in
        -std=*) ;;
        -I*) printf '%s\n' -isystem "${f#-I}" ;;
        *) printf '%s\n' "$f" ;;
        esac
    done
}

defines=()
libs=()
objects=()
compile() { # compile SOURCE FLAGS...
    local src=$1 obj=build/obj/${1%.cpp}.o
    shift
    echo "build.sh: $CXX ${src}" >&2
    "$CXX" "${cxxflags[@]}" "${defines[@]}" "$@" -c "$src" -o "$obj"
    objects+=("$obj")
}

if have_module fcl; then defines+=(-DHAVE_FCL); fi
if have_module ode; then defines+=(-DHAVE_ODE); fi
if [[ -n $opcode_dir ]]; then defines+=(-DHAVE_OPCODE); fi
if have_module bullet; then defines+=(-DHAVE_BULLET); fi

compile main.cpp
compile meshio.cpp
compile heap.cpp
if have_module fcl; then
    mapfile -t f < <(cflags fcl)
    compile fcl.cpp "${f[@]}"
    read -ra l <<<"$(pkg-config --libs fcl)"
    libs+=("${l[@]}")
fi
if [[ -n $opcode_dir ]]; then
    compile opcode.cpp -isystem "$opcode_dir"
fi
if have_module ode; then
    mapfile -t f < <(cflags ode)
    compile ode.cpp "${f[@]}"
    read -ra l <<<"$(pkg-config --libs ode)"
    libs+=("${l[@]}")
fi
if have_module bullet; then
    mapfile -t f < <(cflags bullet)
    compile bullet.cpp "${f[@]}"
    read -ra l <<<"$(pkg-config --libs bullet)"
    libs+=("${l[@]}")
fi
if [[ ${#defines[@]} == 0 ]]; then
    warn "no peer library found (pkg-config modules: ${modules[*]}): collide-peers will list no system"
fi

"$CXX" -o build/collide-peers "${objects[@]}" "${libs[@]}"
echo "$here/build/collide-peers"
