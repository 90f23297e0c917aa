// peer.h: the interface shared by the collide-peers driver (main.cpp) and
// the adapters of the peer collision libraries (fcl.cpp, opcode.cpp, ode.cpp,
// bullet.cpp), and the entry points of the broad phases (broad.cpp).
//
// The driver loads two meshes (ENV and FLY) and a list of poses, asks one
// peer to build its models from the loaded arrays, then runs one query per
// pose: ENV stays at the identity, FLY is moved by the pose (x' = R x + t).
#ifndef COLLIDE_PEERS_PEER_H
#define COLLIDE_PEERS_PEER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace peers {

// Mesh is an indexed triangle soup, the same as the Go loader produces:
// vertices in file order, triangle i is the i-th triangle of the fan
// triangulation of the faces in file order.
struct Mesh {
    std::vector<double> verts;  // x y z per vertex
    std::vector<int32_t> tris;  // a b c per triangle, 0-based vertex indices

    std::size_t numVerts() const { return verts.size() / 3; }
    std::size_t numTris() const { return tris.size() / 3; }
    // bytes returns the size of the two arrays, counted in a peer's memory
    // when it keeps pointers into them instead of copying them.
    std::size_t bytes() const {
        return verts.size() * sizeof(double) + tris.size() * sizeof(int32_t);
    }
};

// Pose is a rigid motion x' = R x + t, R row-major.
struct Pose {
    double R[3][3];
    double t[3];
};

// Pair is a pair of intersecting triangles: (ENV triangle, FLY triangle).
using Pair = std::pair<uint32_t, uint32_t>;

// Stat is one named counter of a query, printed in the "stats" object.
struct Stat {
    const char* name;
    uint64_t value;
};

// Result receives the outcome of one query. The driver reuses it across
// queries: a peer clears it and fills it.
struct Result {
    bool collide = false;
    std::vector<Pair> pairs;  // in any order, duplicates allowed
    Stat stats[4] = {};
    int numStats = 0;

    void clear() {
        collide = false;
        pairs.clear();
        numStats = 0;
    }
    void addStat(const char* name, uint64_t value) {
        if (numStats < 4) stats[numStats++] = Stat{name, value};
    }
};

// Peer is one collision system set up for one run (one mode, one pair of
// meshes).
class Peer {
public:
    virtual ~Peer() = default;

    // build creates the models of env and fly. It is timed, and the heap it
    // retains is measured. The meshes outlive the peer.
    virtual void build(const Mesh& env, const Mesh& fly) = 0;

    // referencesInput reports whether the models keep pointers into the
    // meshes' arrays instead of copying them (their bytes are then counted
    // as part of the models).
    virtual bool referencesInput() const = 0;

    // query places fly at pose (env at the identity), tests the two models
    // and stores the outcome in r. It is timed.
    virtual void query(const Pose& pose, Result& r) = 0;
};

// System describes one peer system: its name, the modes it offers, whether
// its pairs are all intersecting pairs ("all") or a subset ("some"), and how
// to make it.
struct System {
    std::string name;
    bool first;      // offers mode "first" (stop at the first contact)
    bool all;        // offers mode "all" (report every contact)
    bool allPairs;   // pairs "all" (true) or "some" (false)
    std::unique_ptr<Peer> (*make)(const std::string& name, bool all);
};

// DistanceResult receives the outcome of one distance query: the smallest
// distance the peer found between a triangle of env and one of fly, the two
// triangles (-1 if the peer names none) and their closest points, both in
// the environment's (world) frame.
struct DistanceResult {
    double distance = 0;
    int64_t env = -1, fly = -1;
    double pEnv[3] = {0, 0, 0};
    double pFly[3] = {0, 0, 0};
};

// DistancePeer is one distance system set up for one run (one pair of
// meshes).
class DistancePeer {
public:
    virtual ~DistancePeer() = default;

    // build creates the models of env and fly, as Peer::build does. It is
    // timed, and the heap it retains is measured.
    virtual void build(const Mesh& env, const Mesh& fly) = 0;

    // query places fly at pose (env at the identity), computes the distance
    // of the two models and stores it in r. It is timed.
    virtual void query(const Pose& pose, DistanceResult& r) = 0;
};

// DistanceSystem describes one distance system: its name, a one-line
// description (--list-distance) and how to make it.
struct DistanceSystem {
    std::string name;
    std::string variant;
    std::unique_ptr<DistancePeer> (*make)(const std::string& name);
};

// CCDResult receives the outcome of one continuous query: whether the
// system reports a contact during the motion and, if so, its time of
// contact in [0, 1]; or why the system did not run on the motion
// (skipped, e.g. a translation-only solver on a turning motion).
struct CCDResult {
    bool hit = false;
    double toi = 1;
    std::string skipped;
};

// CCDPeer is one continuous collision system set up for one run (one pair
// of meshes): ENV stays at the identity, FLY moves from one pose to
// another.
class CCDPeer {
public:
    virtual ~CCDPeer() = default;

    // build creates the models of env and fly, as Peer::build does. It is
    // timed, and the heap it retains is measured.
    virtual void build(const Mesh& env, const Mesh& fly) = 0;

    // prepare does, untimed, what the system needs before the query of the
    // motion from -> to (nothing, or resetting models the library changes
    // in place). It may set r.skipped, and the query is then not run.
    virtual void prepare(const Pose& from, const Pose& to, CCDResult& r) = 0;

    // query runs the continuous query of FLY moving from pose from to pose
    // to (ENV at the identity) and stores the outcome in r. It is timed.
    virtual void query(const Pose& from, const Pose& to, CCDResult& r) = 0;
};

// CCDSystem describes one continuous collision system: its name, a
// one-line description (--list-ccd) and how to make it.
struct CCDSystem {
    std::string name;
    std::string variant;
    std::unique_ptr<CCDPeer> (*make)(const std::string& name);
};

// Each peer family appends its systems to the list, in the order of the
// --list output. They are compiled only when the library is available.
#ifdef HAVE_FCL
void addFclSystems(std::vector<System>& out);
// addFclContactSystems appends FCL's systems that also compute contact
// points (fcl.cpp), in the order of the --list-contacts output.
void addFclContactSystems(std::vector<System>& out);
// addFclDistanceSystems appends FCL's distance systems (distance.cpp), in
// the order of the --list-distance output.
void addFclDistanceSystems(std::vector<DistanceSystem>& out);
// addFclCCDSystems appends FCL's continuous collision systems (ccd.cpp), in
// the order of the --list-ccd output.
void addFclCCDSystems(std::vector<CCDSystem>& out);
#endif
#ifdef HAVE_OPCODE
void addOpcodeSystems(std::vector<System>& out);
#endif
#ifdef HAVE_ODE
void addOdeSystems(std::vector<System>& out);
#endif
#ifdef HAVE_BULLET
void addBulletSystems(std::vector<System>& out);
#endif

// Broad phases (broad.cpp): the peers' broad phases replaying a box trace.
// listBroad prints the --list-broad lines; haveBroad reports whether a
// system is compiled in, broadNames lists them; runBroad replays the trace
// at path with system name, printing its JSON lines (only a hash of each
// step's pairs with hash). Throws InputError on a bad trace.
void listBroad();
bool haveBroad(const std::string& name);
std::string broadNames();
void runBroad(const std::string& name, bool hash, const std::string& path);

}  // namespace peers

#endif  // COLLIDE_PEERS_PEER_H
