#!/usr/bin/env bash
# selftest.sh compares every system of collide-peers with collide's exact
# answers. It builds the collide CLI from this repository (go build) and
# collide-peers (build.sh --no-install, if its binary is missing or older
# than the sources), generates two meshes (a torus and a sphere) and a pose
# file (identity, translations, rotations about several axes, near-touching
# and far poses), runs `collide check --json --all` as the oracle and every
# listed system in each of its modes, and reports per system and mode:
#
#   bool   poses whose collide boolean agrees with the oracle
#   pairs  poses whose pairs agree: the same set (pairs "all", mode "all"),
#          or a subset of the oracle's, non-empty exactly when the oracle's is
#          (mode "first", or pairs "some")
#   extra  reported pairs that do not intersect (summed over the poses)
#   missed intersecting pairs not reported (mode "all" only)
#
# Peers are not exact (float tests, clipping): a few disagreements on
# touching poses are expected; gross ones point at a bug in the driver.
#
# Then it checks the distance systems (--list-distance) against brute force
# with package bench/distance's TestDistancePeersDriver (go test), and
# prints per system the poses whose distance agrees and those whose
# witnesses are wrong (see below).
#
# Last it checks the broad systems (--list-broad) on box traces with
# package bench/broadpeers' TestBroadPeersDriver (go test) and prints, per
# scene and system, the exact pairs missed, how many of those only touch,
# the extra pairs and the invalid ones.
#
#   bench/peers/selftest.sh [--keep]   (--keep leaves the files in a temp dir)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$(pwd)
repo=$(cd ../.. && pwd)
keep=0
[[ ${1:-} == --keep ]] && keep=1

tmp=$(mktemp -d)
if [[ $keep == 0 ]]; then trap 'rm -rf "$tmp"' EXIT; else echo "files in $tmp"; fi

peers=build/collide-peers
if [[ ! -x $peers || -n $(find . driver -maxdepth 1 \( -name '*.cpp' -o -name '*.h' -o -name build.sh \) -newer "$peers") ]]; then
    ./build.sh --no-install >/dev/null
fi
(cd "$repo" && go build -o "$tmp/collide" ./cmd/collide)

env=$tmp/env.obj
fly=$tmp/fly.obj
poses=$tmp/poses.txt
"$tmp/collide" gen torus tris=2000 -o "$env" >/dev/null
"$tmp/collide" gen icosphere radius=0.4 -o "$fly" >/dev/null

# Poses: R from an axis and an angle (Rodrigues), then t. The torus lies
# around the z axis (major radius 2, tube radius 0.5); the sphere has radius
# 0.4. The values are deterministic (no random numbers).
awk '
function pose(ax, ay, az, angle, tx, ty, tz,    n, c, s, C) {
    n = sqrt(ax * ax + ay * ay + az * az); ax /= n; ay /= n; az /= n
    c = cos(angle); s = sin(angle); C = 1 - c
    printf "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
        c + ax * ax * C, ax * ay * C - az * s, ax * az * C + ay * s,
        ay * ax * C + az * s, c + ay * ay * C, ay * az * C - ax * s,
        az * ax * C - ay * s, az * ay * C + ax * s, c + az * az * C,
        tx, ty, tz
}
BEGIN {
    pi = 3.14159265358979
    print "# identity, then the sphere at the center of the torus (no contact)"
    pose(0, 0, 1, 0, 0, 0, 0)
    print "# 90 degrees about z plus a translation, and other asymmetric rotations"
    pose(0, 0, 1, pi / 2, 0, 2.5, 0.1)
    pose(0, 0, 1, pi / 2, 2.5, 0.3, 0)
    pose(1, 0, 0, pi / 3, -2.45, 0.2, 0.1)
    pose(0, 1, 0, 2.5, 0.2, -2.55, -0.2)
    pose(1, 1, 1, 1, 1.4, 1.4, 0.3)
    pose(1, -2, 0.5, 4, -1.2, 1.9, 0.35)
    print "# along the x axis through the tube, rotating about x, y, z in turn"
    for (i = 0; i <= 20; i++) {
        x = 0.9 + i * 0.1
        k = i % 3
        pose(k == 0, k == 1, k == 2, 0.7 * i, x, 0.05 * sin(i), 0.03 * cos(i))
    }
    print "# above and below the tube, touching and nearly touching"
    pose(0, 0, 1, 0.3, 2, 0, 0.85)
    pose(0, 0, 1, 0.3, 2, 0, 0.9)
    pose(0, 0, 1, 0.3, 2, 0, 0.95)
    pose(1, 0, 0, pi, 0, 2, -0.88)
    pose(1, 0, 0, pi, 0, 2, -0.92)
    print "# near the inner and outer rims"
    pose(0, 0, 1, 0, 1.1, 0, 0)
    pose(0, 0, 1, 0, 1.099, 0, 0)
    pose(0, 0, 1, 0, 1.101, 0, 0)
    pose(0, 0, 1, 0, 2.9, 0, 0)
    pose(0, 0, 1, 0, 2.901, 0, 0)
    pose(0, 0, 1, 0, 2.899, 0, 0)
    print "# around the torus on a helix, with a tumbling sphere"
    for (i = 0; i < 16; i++) {
        a = 2 * pi * i / 16
        pose(sin(i), cos(2 * i), 1, 0.4 * i, (2 + 0.6 * cos(3 * a)) * cos(a), (2 + 0.6 * cos(3 * a)) * sin(a), 0.6 * sin(3 * a))
    }
    print "# far away"
    pose(1, 2, 3, 1, 10, 10, 10)
    pose(0, 0, 1, 0, 0, 0, 5)
}' >"$poses"

"$tmp/collide" check --json --all --poses "$poses" "$env" "$fly" >"$tmp/oracle.jsonl"

# compare ORACLE PEER MODE PAIRS prints one line of the table.
compare() {
    awk -v mode="$3" -v kind="$4" '
    # pairsOf stores the pairs of a JSON line in set (keys "a,b") and
    # returns their number.
    function pairsOf(line, set,    s, n, i, parts) {
        split("", set)
        if (!match(line, /"pairs":\[[^"]*\],"stats"/)) return -1
        s = substr(line, RSTART + 9, RLENGTH - 9 - 9)
        if (s == "") return 0
        gsub(/^\[|\]$/, "", s)
        n = split(s, parts, /\],\[/)
        for (i = 1; i <= n; i++) set[parts[i]] = 1
        return n
    }
    function collideOf(line) { return line ~ /"collide":true/ }
    NR == FNR { oracle[FNR - 1] = $0; next }
    /^\{"build"/ { next }
    {
        if (!match($0, /"pose":[0-9]+/)) next
        i = substr($0, RSTART + 7, RLENGTH - 7) + 0
        total++
        if (collideOf($0) == collideOf(oracle[i])) boolOK++
        no = pairsOf(oracle[i], want)
        np = pairsOf($0, got)
        bad = 0
        for (p in got) if (!(p in want)) { extra++; bad = 1 }
        miss = 0
        for (p in want) if (!(p in got)) miss++
        if (mode == "all") missed += miss
        if (mode == "all" && kind == "all") ok = !bad && miss == 0
        else ok = !bad && ((np > 0) == (no > 0))
        if (ok) pairsOK++
    }
    END {
        printf "%-12s %-6s %-5s %4d/%-4d %4d/%-4d %6d %7s\n", sys, mode, kind, boolOK, total, pairsOK, total, extra + 0, mode == "all" ? missed + 0 : "-"
    }' sys="$5" "$1" "$2"
}

printf "%-12s %-6s %-5s %-9s %-9s %6s %7s\n" system mode pairs bool pairs extra missed
status=0
while IFS= read -r line; do
    sys=$(sed 's/.*"system":"\([^"]*\)".*/\1/' <<<"$line")
    kind=$(sed 's/.*"pairs":"\([^"]*\)".*/\1/' <<<"$line")
    modes=$(sed 's/.*"modes":\[\([^]]*\)\].*/\1/' <<<"$line")
    for mode in first all; do
        grep -q "\"$mode\"" <<<"$modes" || continue
        flag=()
        [[ $mode == all ]] && flag=(--all)
        out=$tmp/$sys-$mode.jsonl
        if ! "$peers" --system "$sys" "${flag[@]}" "$env" "$fly" "$poses" >"$out"; then
            echo "$sys $mode: collide-peers failed" >&2
            status=1
            continue
        fi
        compare "$tmp/oracle.jsonl" "$out" "$mode" "$kind" "$sys"
    done
done < <("$peers" --list)
echo "($(grep -c '"pose"' "$tmp/oracle.jsonl") poses, $(grep -c '"collide":true' "$tmp/oracle.jsonl") in contact per collide)"

# The distance systems (--list-distance) against brute force: package
# bench's TestDistancePeersDriver runs every distance system on a small torus
# and sphere at 10 poses (far, near, touching within rounding, overlapping),
# fails if a distance differs from the brute-force minimum over all triangle
# pairs by more than a relative 1e-6 (1e-9 absolute near 0), and logs the
# wrong witnesses (FCL's, not failed): per system, the poses whose witness
# has a point off its triangle (point), |p_env - p_fly| other than the
# distance (length), triangles at another distance (pair), a triangle out
# of range (triangle).
echo
printf "%-12s %5s %7s %6s %7s %5s %6s %4s %8s\n" system poses contact agree witness point length pair triangle
if ! (cd "$repo" && COLLIDE_PEERS="$here/$peers" go test ./bench/distance/ -count=1 -run 'TestDistancePeersDriver$' -v >"$tmp/distance.log" 2>&1); then
    echo "distance systems: go test failed (see below)" >&2
    tail -n 20 "$tmp/distance.log" >&2
    status=1
fi
sed -n 's/^ *peer_test.go:[0-9]*: summary \([^:]*\): poses \([0-9]*\), contact \([0-9]*\), distances agree \([0-9]*\), witnesses wrong \([0-9]*\) (point \([0-9]*\), length \([0-9]*\), pair \([0-9]*\), triangle \([0-9]*\))$/\1 \2 \3 \4 \5 \6 \7 \8 \9/p' "$tmp/distance.log" |
    while read -r sys poses contact agree wrong point length pair triangle; do
        printf "%-12s %5s %7s %6s %7s %5s %6s %4s %8s\n" "$sys" "$poses" "$contact" "$agree" "$wrong" "$point" "$length" "$pair" "$triangle"
    done

# The broad phases (--list-broad) against the exact pairs of box traces:
# package bench/broadpeers' TestBroadPeersDriver replays its small scenes
# (Brownian boxes, boxes on a grid that touch exactly, unit cubes on a lattice)
# through every broad system and collide's brute force, and logs per scene
# and system the exact pairs missed (and how many of those only touch),
# the extra pairs and the invalid ones (an absent object, two static
# ones). It fails if a Bullet system misses a pair.
echo
printf "%-10s %-24s %8s %10s %8s %8s\n" scene system missed touching extra invalid
if ! (cd "$repo" && COLLIDE_PEERS="$here/$peers" go test ./bench/broadpeers/ -count=1 -run 'TestBroadPeersDriver$' -v >"$tmp/broad.log" 2>&1); then
    echo "broad phases: go test failed (see below)" >&2
    grep -v '^ *|' "$tmp/broad.log" | tail -n 20 >&2
    status=1
fi
sed -n 's/^ *broadpeers_test.go:[0-9]*: \([^,]*\), \([^:]*\): missed \([0-9-]*\) (\([0-9]*\) touching), extra \([0-9-]*\), invalid \([0-9]*\)$/\1|\2|\3|\4|\5|\6/p' "$tmp/broad.log" |
    while IFS='|' read -r scene sys missed touching extra invalid; do
        printf "%-10s %-24s %8s %10s %8s %8s\n" "$scene" "$sys" "$missed" "$touching" "$extra" "$invalid"
    done
exit $status
