#!/usr/bin/env bash
# build.sh builds collide-peers, the C++ driver that runs peer collision
# libraries (FCL, OPCODE, ODE, Bullet) for `collide bench --peers`, into
# bench/peers/build/collide-peers, from Debian (bookworm) packages.
#
#   bench/peers/build.sh [--no-install]
#
# 1. Installs the packages with apt-get when a pkg-config module is missing
#    (skipped with --no-install; uses sudo when not root).
# 2. Gets ODE's source package with `apt-get source --download-only` for the
#    OPCODE headers, which no package ships (libode contains the OPCODE code
#    itself). apt runs with a private configuration under build/apt whose
#    sources are the machine's apt sources turned into deb-src ones; the orig
#    tarball is checked against its sha256. Without it the opcode systems are
#    left out, with a warning saying why.
# 3. Compiles every peer whose library is available and links the driver.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$(pwd)

install=1
for arg in "$@"; do
    case "$arg" in
    --no-install) install=0 ;;
    -h | --help)
        sed -n '2,16p' "$here/${BASH_SOURCE[0]##*/}" | sed 's/^# \{0,1\}//'
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
packages=(g++ pkg-config libfcl-dev libode-dev libbullet-dev)

ode_version=0.16.2
ode_tarball=ode_${ode_version}.orig.tar.gz
ode_sha256=b26aebdcb015e2d89720ef48e0cb2e8a3ca77915f89d853893e7cc861f810f22

warn() { echo "build.sh: warning: $*" >&2; }

# have_module reports whether pkg-config knows the module.
have_module() { command -v pkg-config >/dev/null && pkg-config --exists "$1"; }

# --- 1. packages -------------------------------------------------------------
missing=0
command -v "$CXX" >/dev/null || missing=1
for m in "${modules[@]}"; do have_module "$m" || missing=1; done
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
        "${sudo[@]}" apt-get update >&2
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y --no-install-recommends "${packages[@]}" >&2
    fi
fi
command -v "$CXX" >/dev/null || { echo "build.sh: no C++ compiler ($CXX)" >&2; exit 1; }

mkdir -p build/obj

# --- 2. OPCODE headers -------------------------------------------------------
# The headers come from ODE's Debian source package, fetched by apt's own
# client from the machine's configured apt sources: no address is written
# here. apt runs with a private configuration under build/apt (sources, lists
# and cache; the machine's apt.conf.d still applies, minus its update hooks),
# so the machine's apt state is left alone.
apt_dir=$here/build/apt
opcode_dir=$here/build/ode-$ode_version/OPCODE

# tarball_ok reports whether the tarball is there with the right checksum.
tarball_ok() {
    [[ -f build/$ode_tarball ]] && echo "$ode_sha256  build/$ode_tarball" | sha256sum --check --status -
}

# private_apt runs apt-get with the private configuration.
private_apt() {
    apt-get -q -c "$apt_dir/apt.conf" \
        -o Dir::Etc::SourceList="$apt_dir/sources.list" \
        -o Dir::Etc::SourceParts="$apt_dir/sources.list.d" \
        -o Dir::State::Lists="$apt_dir/lists" \
        -o Dir::Cache="$apt_dir/cache" \
        -o Acquire::Languages=none \
        "$@"
}

# deb_src_sources writes the private sources: every deb (or deb-src) entry
# of the machine's apt sources as a deb-src one, with the same URIs, suites,
# components and options (Signed-By...). It reports whether there was any.
deb_src_sources() {
    local sourcelist sourceparts f name
    eval "$(apt-config shell sourcelist Dir::Etc::SourceList/f sourceparts Dir::Etc::SourceParts/d)"
    rm -rf "$apt_dir/sources.list" "$apt_dir/sources.list.d"
    mkdir -p "$apt_dir/sources.list.d"
    # One-line style: "deb [options] URI suite [component...]".
    for f in "$sourcelist" "$sourceparts"/*.list; do
        [[ -f $f ]] || continue
        awk '$1 == "deb" || $1 == "deb-src" { $1 = "deb-src"; print }' "$f"
    done | sort -u >"$apt_dir/sources.list"
    # deb822 style: stanzas of fields; "Types: deb" becomes "Types: deb-src",
    # the other fields are kept (continuation lines too), comments dropped,
    # stanzas with "Enabled: no" or without a deb type left out.
    for f in "$sourceparts"/*.sources; do
        [[ -f $f ]] || continue
        name=${f##*/}
        awk '
            function flush(    i) {
                if (n > 0 && types ~ /(^|[ \t])deb(-src)?([ \t]|$)/ && tolower(enabled) !~ /^no/) {
                    if (stanzas++) print ""
                    print "Types: deb-src"
                    for (i = 1; i <= n; i++) print lines[i]
                }
                n = 0; types = ""; enabled = ""; skip = 0
            }
            /^[ \t]*$/ { flush(); next }
            /^#/ { next }
            /^[ \t]/ { if (!skip) lines[++n] = $0; next }
            {
                key = tolower($0); sub(/[ \t]*:.*/, "", key)
                value = $0; sub(/^[^:]*:[ \t]*/, "", value)
                skip = 0
                if (key == "types") { types = value; skip = 1; next }
                if (key == "enabled") { enabled = value; skip = 1; next }
                lines[++n] = $0
            }
            END { flush() }
        ' "$f" >"$apt_dir/sources.list.d/$name"
        [[ -s $apt_dir/sources.list.d/$name ]] || rm -f "$apt_dir/sources.list.d/$name"
    done
    [[ -s $apt_dir/sources.list || -n $(ls -A "$apt_dir/sources.list.d") ]]
}

# fetch_ode puts ODE's orig tarball into build/ with apt-get source. On
# failure it sets why and returns 1.
why=
fetch_ode() {
    local version tarball
    if ! command -v apt-get >/dev/null || ! command -v apt-config >/dev/null; then
        why="apt-get is not installed (not a Debian system?)"
        return 1
    fi
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache"
    if ! deb_src_sources; then
        why="the machine's apt sources list no deb entry to derive a deb-src one from (apt-config dump | grep Dir::Etc shows where they are read)"
        return 1
    fi
    # Clear the machine's update hooks: they act on the machine's own cache.
    cat >"$apt_dir/apt.conf" <<'CONF'
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
CONF
    echo "build.sh: apt-get update (private configuration in $apt_dir, deb-src of the machine's sources)" >&2
    if ! private_apt update >&2; then
        warn "apt-get update with the deb-src sources reported errors; trying apt-get source anyway"
    fi
    # The source version of the installed libode-dev, so that the headers
    # match the library; any version of ode if that one is not found.
    version=$(dpkg-query -W -f='${source:Version}' libode-dev 2>/dev/null || true)
    rm -rf "$apt_dir/src"
    mkdir -p "$apt_dir/src"
    # As root, apt downloads as its sandbox user _apt, who must be able to
    # write there (as in the partial directories apt makes itself).
    if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$apt_dir/src"; fi
    echo "build.sh: apt-get source --download-only ode${version:+=$version}" >&2
    if ! (cd "$apt_dir/src" && { { [[ -n $version ]] && private_apt source --only-source --download-only "ode=$version"; } ||
        private_apt source --only-source --download-only ode; } >&2); then
        why="apt-get source could not get the source package ode: the machine's apt sources may have no deb-src counterpart (see apt's messages above)"
        return 1
    fi
    if [[ ! -f $apt_dir/src/$ode_tarball ]]; then
        tarball=$(cd "$apt_dir/src" && ls ode_*.orig.tar.* 2>/dev/null | head -n 1)
        why="apt-get source gave ${tarball:-no orig tarball}, not $ode_tarball"
        return 1
    fi
    cp "$apt_dir/src/$ode_tarball" "build/$ode_tarball"
    if ! tarball_ok; then
        rm -f "build/$ode_tarball"
        why="$ode_tarball from apt-get source does not have the sha256 $ode_sha256"
        return 1
    fi
}

if have_module ode && [[ ! -f $opcode_dir/Opcode.h ]]; then
    if tarball_ok || fetch_ode; then
        rm -rf "build/ode-$ode_version" build/ode.tmp
        mkdir build/ode.tmp
        tar -xzf "build/$ode_tarball" -C build/ode.tmp "ode-$ode_version/OPCODE"
        mv "build/ode.tmp/ode-$ode_version" build/
        rmdir build/ode.tmp
    else
        warn "no OPCODE headers: $why.
  collide-peers is built without the opcode systems. To build them, make the
  machine's apt sources serve Debian's source packages (deb-src) and run
  build.sh again, or put $ode_tarball (sha256
  $ode_sha256) into $here/build/."
    fi
fi
if ! have_module ode || [[ ! -f $opcode_dir/Opcode.h ]]; then opcode_dir=; fi

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
    local src=driver/$1 obj=build/obj/${1%.cpp}.o
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
    compile distance.cpp "${f[@]}"
    compile ccd.cpp "${f[@]}"
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
# broad.cpp: the broad phases of Bullet and FCL, whichever are found (the
# libraries are linked above).
broad_modules=()
if have_module fcl; then broad_modules+=(fcl); fi
if have_module bullet; then broad_modules+=(bullet); fi
f=()
if [[ ${#broad_modules[@]} -gt 0 ]]; then mapfile -t f < <(cflags "${broad_modules[@]}"); fi
compile broad.cpp "${f[@]}"
if [[ ${#defines[@]} == 0 ]]; then
    warn "no peer library found (pkg-config modules: ${modules[*]}): collide-peers will list no system"
fi

"$CXX" -o build/collide-peers "${objects[@]}" "${libs[@]}"
echo "$here/build/collide-peers"
