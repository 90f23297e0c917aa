// collide-peers runs peer collision libraries on the mesh and pose files of
// `collide check --poses FILE --json` and prints the same JSON Lines, for
// `collide bench --peers`. See README.md for the protocol.
//
//   collide-peers --list
//   collide-peers --system NAME [--all] ENV FLY POSES
//   collide-peers --list-contacts
//   collide-peers --list-broad
//   collide-peers --broad NAME [--hash] TRACE
//   collide-peers --list-distance
//   collide-peers --distance NAME ENV FLY POSES
//   collide-peers --list-ccd
//   collide-peers --ccd NAME ENV FLY MOTIONS

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "heap.h"
#include "meshio.h"
#include "peer.h"

namespace peers {
namespace {

const char kUsage[] =
    "usage: collide-peers --list\n"
    "       collide-peers --system NAME [--all] ENV FLY POSES\n"
    "       collide-peers --list-contacts\n"
    "       collide-peers --list-broad\n"
    "       collide-peers --broad NAME [--hash] TRACE\n"
    "       collide-peers --list-distance\n"
    "       collide-peers --distance NAME ENV FLY POSES\n"
    "       collide-peers --list-ccd\n"
    "       collide-peers --ccd NAME ENV FLY MOTIONS\n";

// UsageError reports bad command-line arguments (exit status 2).
struct UsageError {
    std::string msg;
};

// systems returns the systems compiled in, in the order of --list.
std::vector<System> systems() {
    std::vector<System> out;
#ifdef HAVE_FCL
    addFclSystems(out);
#endif
#ifdef HAVE_OPCODE
    addOpcodeSystems(out);
#endif
#ifdef HAVE_ODE
    addOdeSystems(out);
#endif
#ifdef HAVE_BULLET
    addBulletSystems(out);
#endif
    return out;
}

// contactSystems returns the systems that also compute contact geometry, in
// the order of --list-contacts. --system finds them; --list leaves them out.
std::vector<System> contactSystems() {
    std::vector<System> out;
#ifdef HAVE_FCL
    addFclContactSystems(out);
#endif
    return out;
}

// distanceSystems returns the distance systems compiled in, in the order of
// --list-distance.
std::vector<DistanceSystem> distanceSystems() {
    std::vector<DistanceSystem> out;
#ifdef HAVE_FCL
    addFclDistanceSystems(out);
#endif
    return out;
}

// ccdSystems returns the continuous collision systems compiled in, in the
// order of --list-ccd.
std::vector<CCDSystem> ccdSystems() {
    std::vector<CCDSystem> out;
#ifdef HAVE_FCL
    addFclCCDSystems(out);
#endif
    return out;
}

// Output accumulates JSON text and writes it to the buffered stdout.
class Output {
public:
    Output& raw(const char* s) {
        buf_ += s;
        return *this;
    }
    // str appends s as a JSON string (names here are plain ASCII).
    Output& str(const std::string& s) {
        buf_ += '"';
        for (char c : s) {
            if (c == '"' || c == '\\') buf_ += '\\';
            buf_ += c;
        }
        buf_ += '"';
        return *this;
    }
    Output& num(unsigned long long x) {
        char tmp[32];
        std::snprintf(tmp, sizeof tmp, "%llu", x);
        buf_ += tmp;
        return *this;
    }
    Output& real(double x) {
        char tmp[40];
        std::snprintf(tmp, sizeof tmp, "%.9g", x);
        buf_ += tmp;
        return *this;
    }
    // exact appends x with 17 significant digits (it reads back as the same
    // double), or null if x is not finite.
    Output& exact(double x) {
        if (!std::isfinite(x)) return raw("null");
        char tmp[40];
        std::snprintf(tmp, sizeof tmp, "%.17g", x);
        buf_ += tmp;
        return *this;
    }
    Output& integer(long long x) {
        char tmp[32];
        std::snprintf(tmp, sizeof tmp, "%lld", x);
        buf_ += tmp;
        return *this;
    }
    Output& boolean(bool b) { return raw(b ? "true" : "false"); }

    // endLine ends the line and hands it to stdout (buffered, not flushed).
    void endLine() {
        buf_ += '\n';
        std::fwrite(buf_.data(), 1, buf_.size(), stdout);
        buf_.clear();
    }

private:
    std::string buf_;
};

void list(const std::vector<System>& all) {
    Output out;
    for (const System& s : all) {
        out.raw("{\"system\":").str(s.name).raw(",\"modes\":[");
        if (s.first) out.raw("\"first\"");
        if (s.first && s.all) out.raw(",");
        if (s.all) out.raw("\"all\"");
        out.raw("],\"pairs\":").str(s.allPairs ? "all" : "some").raw("}");
        out.endLine();
    }
}

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

void run(const System& sys, bool all, const std::string& envPath, const std::string& flyPath,
         const std::string& posesPath) {
    // Read the poses first: a bad pose file fails before the meshes load.
    std::vector<Pose> poses = readPoses(posesPath);
    Mesh env = readMesh(envPath);
    Mesh fly = readMesh(flyPath);
    if (env.numTris() == 0) throw InputError(envPath + ": the mesh has no triangles");
    if (fly.numTris() == 0) throw InputError(flyPath + ": the mesh has no triangles");

    // Making the peer sets up the library (global state, worlds, scratch
    // buffers); only the models built next are timed and measured.
    std::unique_ptr<Peer> peer = sys.make(sys.name, all);

    std::size_t before = heap::inUse();
    heap::resetPeak();
    Clock::time_point t0 = Clock::now();
    peer->build(env, fly);
    Clock::time_point t1 = Clock::now();
    std::size_t after = heap::inUse();
    std::size_t peak = heap::peak();
    std::size_t referenced = peer->referencesInput() ? env.bytes() + fly.bytes() : 0;
    std::size_t bytes = (after > before ? after - before : 0) + referenced;
    std::size_t peakBytes = (peak > before ? peak - before : 0) + referenced;

    Output out;
    out.raw("{\"build\":{\"system\":").str(sys.name).raw(",\"mode\":").str(all ? "all" : "first");
    out.raw(",\"seconds\":").real(seconds(t0, t1));
    out.raw(",\"bytes\":").num(bytes).raw(",\"peak_bytes\":").num(peakBytes);
    out.raw(",\"env_triangles\":").num(env.numTris()).raw(",\"fly_triangles\":").num(fly.numTris()).raw("}}");
    out.endLine();

    Result r;
    r.pairs.reserve(1024);
    for (std::size_t i = 0; i < poses.size(); i++) {
        r.clear();
        Clock::time_point q0 = Clock::now();
        peer->query(poses[i], r);
        Clock::time_point q1 = Clock::now();

        std::sort(r.pairs.begin(), r.pairs.end());
        r.pairs.erase(std::unique(r.pairs.begin(), r.pairs.end()), r.pairs.end());
        out.raw("{\"pose\":").num(i).raw(",\"collide\":").boolean(r.collide).raw(",\"pairs\":[");
        for (std::size_t k = 0; k < r.pairs.size(); k++) {
            if (k > 0) out.raw(",");
            out.raw("[").num(r.pairs[k].first).raw(",").num(r.pairs[k].second).raw("]");
        }
        out.raw("],\"stats\":{");
        for (int k = 0; k < r.numStats; k++) {
            if (k > 0) out.raw(",");
            out.str(r.stats[k].name).raw(":").num(r.stats[k].value);
        }
        out.raw("},\"seconds\":").real(seconds(q0, q1)).raw("}");
        out.endLine();
    }
}

void listDistance(const std::vector<DistanceSystem>& all) {
    Output out;
    for (const DistanceSystem& s : all) {
        out.raw("{\"system\":").str(s.name).raw(",\"variant\":").str(s.variant).raw("}");
        out.endLine();
    }
}

// runDistance runs one distance system on the meshes and poses, as run does
// for a collision system: a build line, then one line per pose.
void runDistance(const DistanceSystem& sys, const std::string& envPath, const std::string& flyPath,
                 const std::string& posesPath) {
    std::vector<Pose> poses = readPoses(posesPath);
    Mesh env = readMesh(envPath);
    Mesh fly = readMesh(flyPath);
    if (env.numTris() == 0) throw InputError(envPath + ": the mesh has no triangles");
    if (fly.numTris() == 0) throw InputError(flyPath + ": the mesh has no triangles");

    std::unique_ptr<DistancePeer> peer = sys.make(sys.name);

    std::size_t before = heap::inUse();
    heap::resetPeak();
    Clock::time_point t0 = Clock::now();
    peer->build(env, fly);
    Clock::time_point t1 = Clock::now();
    std::size_t after = heap::inUse();
    std::size_t peak = heap::peak();

    Output out;
    out.raw("{\"build\":{\"system\":").str(sys.name).raw(",\"mode\":\"distance\"");
    out.raw(",\"seconds\":").real(seconds(t0, t1));
    out.raw(",\"bytes\":").num(after > before ? after - before : 0);
    out.raw(",\"peak_bytes\":").num(peak > before ? peak - before : 0);
    out.raw(",\"env_triangles\":").num(env.numTris()).raw(",\"fly_triangles\":").num(fly.numTris()).raw("}}");
    out.endLine();

    // One untimed query at the first pose: FCL builds its dispatch table of
    // distance functions (a function-local static) on its first call, a
    // one-time cost that would otherwise fall on pose 0.
    DistanceResult r;
    peer->query(poses[0], r);
    for (std::size_t i = 0; i < poses.size(); i++) {
        r = DistanceResult{};
        Clock::time_point q0 = Clock::now();
        peer->query(poses[i], r);
        Clock::time_point q1 = Clock::now();
        long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(q1 - q0).count();

        out.raw("{\"pose\":").num(i).raw(",\"distance\":").exact(r.distance);
        out.raw(",\"env\":").integer(r.env).raw(",\"fly\":").integer(r.fly);
        out.raw(",\"p_env\":[").exact(r.pEnv[0]).raw(",").exact(r.pEnv[1]).raw(",").exact(r.pEnv[2]).raw("]");
        out.raw(",\"p_fly\":[").exact(r.pFly[0]).raw(",").exact(r.pFly[1]).raw(",").exact(r.pFly[2]).raw("]");
        out.raw(",\"ns\":").integer(ns).raw("}");
        out.endLine();
    }
}

void listCCD(const std::vector<CCDSystem>& all) {
    Output out;
    for (const CCDSystem& s : all) {
        out.raw("{\"system\":").str(s.name).raw(",\"variant\":").str(s.variant).raw("}");
        out.endLine();
    }
}

// runCCD runs one continuous collision system on the meshes and the
// motions of the pose file (motion i goes from pose i to pose i+1): a build
// line, then one line per motion. An exception of the system on a motion
// is that motion's error line; the run goes on with the next motion.
void runCCD(const CCDSystem& sys, const std::string& envPath, const std::string& flyPath,
            const std::string& motionsPath) {
    std::vector<Pose> poses = readPoses(motionsPath);
    if (poses.size() < 2) throw InputError(motionsPath + ": a motion needs two poses, the file has one");
    Mesh env = readMesh(envPath);
    Mesh fly = readMesh(flyPath);
    if (env.numTris() == 0) throw InputError(envPath + ": the mesh has no triangles");
    if (fly.numTris() == 0) throw InputError(flyPath + ": the mesh has no triangles");

    std::unique_ptr<CCDPeer> peer = sys.make(sys.name);

    std::size_t before = heap::inUse();
    heap::resetPeak();
    Clock::time_point t0 = Clock::now();
    peer->build(env, fly);
    Clock::time_point t1 = Clock::now();
    std::size_t after = heap::inUse();
    std::size_t peak = heap::peak();

    Output out;
    out.raw("{\"build\":{\"system\":").str(sys.name).raw(",\"mode\":\"ccd\"");
    out.raw(",\"seconds\":").real(seconds(t0, t1));
    out.raw(",\"bytes\":").num(after > before ? after - before : 0);
    out.raw(",\"peak_bytes\":").num(peak > before ? peak - before : 0);
    out.raw(",\"env_triangles\":").num(env.numTris()).raw(",\"fly_triangles\":").num(fly.numTris()).raw("}}");
    out.endLine();
    // The build line goes out at once: a caller that sees the driver die
    // on a motion knows which one from the lines before.
    std::fflush(stdout);

    // One untimed query of the first motion the system runs: FCL builds
    // its tables of continuous collision functions (function-local
    // statics) on first use. Errors here are left to the timed query.
    for (std::size_t i = 0; i + 1 < poses.size(); i++) {
        CCDResult r;
        try {
            peer->prepare(poses[i], poses[i + 1], r);
            if (!r.skipped.empty()) continue;
            peer->query(poses[i], poses[i + 1], r);
        } catch (const std::exception&) {
        }
        break;
    }
    for (std::size_t i = 0; i + 1 < poses.size(); i++) {
        CCDResult r;
        std::string err;
        double secs = 0;
        try {
            peer->prepare(poses[i], poses[i + 1], r);
            if (r.skipped.empty()) {
                Clock::time_point q0 = Clock::now();
                peer->query(poses[i], poses[i + 1], r);
                Clock::time_point q1 = Clock::now();
                secs = seconds(q0, q1);
            }
        } catch (const std::bad_alloc&) {
            err = "out of memory";
        } catch (const std::exception& e) {
            err = e.what();
            if (err.empty()) err = "exception";
        }
        out.raw("{\"motion\":").num(i);
        if (!err.empty()) {
            out.raw(",\"error\":").str(err);
        } else if (!r.skipped.empty()) {
            out.raw(",\"skipped\":").str(r.skipped);
        } else {
            out.raw(",\"hit\":").boolean(r.hit);
            if (r.hit) out.raw(",\"toi\":").exact(r.toi);
            out.raw(",\"seconds\":").real(secs);
        }
        out.raw("}");
        out.endLine();
        // Line by line: the caller watches for a motion that does not end.
        std::fflush(stdout);
    }
}

int mainImpl(int argc, char** argv) {
    static char stdoutBuf[1 << 16];
    std::setvbuf(stdout, stdoutBuf, _IOFBF, sizeof stdoutBuf);

    bool doList = false, doListContacts = false, all = false, doListBroad = false, hash = false, doListDistance = false, doListCCD = false;
    std::string name, broadName, distanceName, ccdName;
    std::vector<std::string> args;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (!args.empty() || a.size() < 2 || a[0] != '-') {
            args.push_back(a);  // positional (flags come first)
        } else if (a == "--list") {
            doList = true;
        } else if (a == "--list-contacts") {
            doListContacts = true;
        } else if (a == "--all") {
            all = true;
        } else if (a == "--list-broad") {
            doListBroad = true;
        } else if (a == "--list-distance") {
            doListDistance = true;
        } else if (a == "--distance") {
            if (i + 1 >= argc) throw UsageError{"--distance needs a NAME"};
            distanceName = argv[++i];
        } else if (a.rfind("--distance=", 0) == 0) {
            distanceName = a.substr(11);
        } else if (a == "--list-ccd") {
            doListCCD = true;
        } else if (a == "--ccd") {
            if (i + 1 >= argc) throw UsageError{"--ccd needs a NAME"};
            ccdName = argv[++i];
        } else if (a.rfind("--ccd=", 0) == 0) {
            ccdName = a.substr(6);
        } else if (a == "--hash") {
            hash = true;
        } else if (a == "--broad") {
            if (i + 1 >= argc) throw UsageError{"--broad needs a NAME"};
            broadName = argv[++i];
        } else if (a.rfind("--broad=", 0) == 0) {
            broadName = a.substr(8);
        } else if (a == "--system") {
            if (i + 1 >= argc) throw UsageError{"--system needs a NAME"};
            name = argv[++i];
        } else if (a.rfind("--system=", 0) == 0) {
            name = a.substr(9);
        } else if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else {
            throw UsageError{"unknown flag " + a};
        }
    }

    if (doListCCD || !ccdName.empty()) {
        if (doList || all || !name.empty() || doListBroad || !broadName.empty() || hash || doListDistance ||
            !distanceName.empty())
            throw UsageError{"--list-ccd and --ccd take no other mode flag"};
        std::vector<CCDSystem> available = ccdSystems();
        if (doListCCD) {
            if (!ccdName.empty() || !args.empty()) throw UsageError{"--list-ccd takes no other argument"};
            listCCD(available);
            return 0;
        }
        const CCDSystem* sys = nullptr;
        for (const CCDSystem& s : available) {
            if (s.name == ccdName) sys = &s;
        }
        if (sys == nullptr) {
            std::string known;
            for (const CCDSystem& s : available) known += (known.empty() ? "" : " ") + s.name;
            throw UsageError{"unknown ccd system \"" + ccdName + "\" (available: " + (known.empty() ? "none" : known) +
                             ")"};
        }
        if (args.size() != 3)
            throw UsageError{"want ENV FLY MOTIONS, got " + std::to_string(args.size()) + " argument(s)"};
        runCCD(*sys, args[0], args[1], args[2]);
        return 0;
    }

    if (doListDistance || !distanceName.empty()) {
        if (doList || all || !name.empty() || doListBroad || !broadName.empty() || hash)
            throw UsageError{"--list-distance and --distance take no other mode flag"};
        std::vector<DistanceSystem> available = distanceSystems();
        if (doListDistance) {
            if (!distanceName.empty() || !args.empty()) throw UsageError{"--list-distance takes no other argument"};
            listDistance(available);
            return 0;
        }
        const DistanceSystem* sys = nullptr;
        for (const DistanceSystem& s : available) {
            if (s.name == distanceName) sys = &s;
        }
        if (sys == nullptr) {
            std::string known;
            for (const DistanceSystem& s : available) known += (known.empty() ? "" : " ") + s.name;
            throw UsageError{"unknown distance system \"" + distanceName + "\" (available: " +
                             (known.empty() ? "none" : known) + ")"};
        }
        if (args.size() != 3)
            throw UsageError{"want ENV FLY POSES, got " + std::to_string(args.size()) + " argument(s)"};
        runDistance(*sys, args[0], args[1], args[2]);
        return 0;
    }

    if (doListBroad || !broadName.empty() || hash) {
        if (doList || all || !name.empty()) throw UsageError{"--list-broad and --broad take no mesh flag"};
        if (doListBroad) {
            if (!broadName.empty() || hash || !args.empty()) throw UsageError{"--list-broad takes no other argument"};
            listBroad();
            return 0;
        }
        if (broadName.empty()) throw UsageError{"--hash goes with --broad NAME"};
        if (!haveBroad(broadName)) {
            std::string known = broadNames();
            throw UsageError{"unknown broad system \"" + broadName + "\" (available: " + (known.empty() ? "none" : known) +
                             ")"};
        }
        if (args.size() != 1) throw UsageError{"want TRACE, got " + std::to_string(args.size()) + " argument(s)"};
        runBroad(broadName, hash, args[0]);
        return 0;
    }

    std::vector<System> available = systems();
    if (doList || doListContacts) {
        if (!name.empty() || all || !args.empty() || (doList && doListContacts))
            throw UsageError{"--list and --list-contacts take no other argument"};
        list(doList ? available : contactSystems());
        return 0;
    }
    for (System& s : contactSystems()) available.push_back(std::move(s));
    if (name.empty()) throw UsageError{"give --list or --system NAME"};
    const System* sys = nullptr;
    for (const System& s : available) {
        if (s.name == name) sys = &s;
    }
    if (sys == nullptr) {
        std::string known;
        for (const System& s : available) known += (known.empty() ? "" : " ") + s.name;
        throw UsageError{"unknown system \"" + name + "\" (available: " + (known.empty() ? "none" : known) + ")"};
    }
    if (args.size() != 3) throw UsageError{"want ENV FLY POSES, got " + std::to_string(args.size()) + " argument(s)"};
    if (all ? !sys->all : !sys->first)
        throw UsageError{"system " + name + " has no mode \"" + (all ? "all" : "first") + "\"" +
                         (all ? "" : " (use --all)")};
    run(*sys, all, args[0], args[1], args[2]);
    return 0;
}

}  // namespace
}  // namespace peers

int main(int argc, char** argv) {
    int status;
    try {
        status = peers::mainImpl(argc, argv);
    } catch (const peers::UsageError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "collide-peers: %s\n%s", e.msg.c_str(), peers::kUsage);
        return 2;
    } catch (const peers::InputError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "collide-peers: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fflush(stdout);
        std::fprintf(stderr, "collide-peers: out of memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "collide-peers: %s\n", e.what());
        return 1;
    }
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "collide-peers: writing the output: %s\n", std::strerror(errno));
        return 1;
    }
    return status;
}
