// broad.cpp: the broad phases of the peers (Bullet's btDbvtBroadphase and
// btAxisSweep3, FCL's broad-phase collision managers) replaying a box
// trace, for `collide bench` (package bench, RunBroadPeers). See README.md
// ("Broad phases") for the protocol and the trace format (written by
// bench/boxtrace.go).
//
//   collide-peers --list-broad
//   collide-peers --broad NAME [--hash] TRACE
//
// Each library is used as a broad phase only: per step, its update with the
// objects added, moved and removed (Bullet: createProxy, setAabb,
// destroyProxy; FCL: registerObjects, update(moved), unregisterObject, then
// setup), timed as "update"; then its set of overlapping pairs (Bullet: the
// overlapping pair cache after calculateOverlappingPairs; FCL: collide()
// with a callback that only records the pair, no narrow phase), timed as
// "pairs". The pairs are then sorted and deduplicated (not timed) and
// printed, or hashed with --hash.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef HAVE_BULLET
#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#endif
#ifdef HAVE_FCL
#include <fcl/broadphase/broadphase_SSaP.h>
#include <fcl/broadphase/broadphase_SaP.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree_array.h>
#include <fcl/broadphase/broadphase_interval_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/collision_object.h>
#endif

#include "heap.h"
#include "meshio.h"
#include "peer.h"

namespace peers {
namespace {

// --- the trace ---------------------------------------------------------------

struct TraceBox {
    double lo[3], hi[3];
};

struct TraceAdd {
    uint32_t id;
    bool isStatic;
    TraceBox box;
};

struct TraceMove {
    uint32_t id;
    TraceBox box;
};

struct TraceStep {
    std::vector<TraceAdd> add;
    std::vector<TraceMove> move;
    std::vector<uint32_t> remove;
};

// TraceInfo is what a peer knows of the trace before the first step.
struct TraceInfo {
    uint32_t objects = 0, steps = 0;
    // lo and hi bound every box of the trace (0 when it has none).
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};

const char kMagic[8] = {'B', 'O', 'X', 'T', 'R', 'A', 'C', 'E'};
const uint32_t kVersion = 1;
const uint32_t kMaxObjects = 1u << 22;

// TraceReader reads a box trace step by step and checks it as
// bench/boxtrace.go does; errors are InputErrors naming the byte offset.
class TraceReader {
public:
    explicit TraceReader(const std::string& path) : path_(path) {
        f_ = std::fopen(path.c_str(), "rb");
        if (f_ == nullptr) throw InputError(path + ": " + std::strerror(errno));
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 16);
        unsigned char h[24];
        read(h, 24, -1, "reading the header");
        if (std::memcmp(h, kMagic, 8) != 0) fail(0, -1, "bad magic (not a box trace)");
        if (le32(h + 8) != kVersion) fail(8, -1, "version " + std::to_string(le32(h + 8)) + ", want 1");
        info_.objects = le32(h + 12);
        if (info_.objects > kMaxObjects)
            fail(12, -1, "object count " + std::to_string(info_.objects) + " exceeds the limit");
        info_.steps = le32(h + 16);
        if (le32(h + 20) != 0) fail(20, -1, "reserved field is not 0");
        present_.assign(info_.objects, 0);
        stamp_.assign(info_.objects, 0);
    }
    ~TraceReader() {
        if (f_ != nullptr) std::fclose(f_);
    }
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    const TraceInfo& info() const { return info_; }

    // next reads the next step into s; it returns false after the last one
    // (having checked that the file ends there).
    bool next(TraceStep& s) {
        s.add.clear();
        s.move.clear();
        s.remove.clear();
        long step = long(next_);
        if (next_ == info_.steps) {
            if (std::fgetc(f_) != EOF) fail(off_, step - 1, "data after the last step");
            return false;
        }
        unsigned char b[56];
        long start = off_;
        read(b, 16, step, "reading a step header");
        if (le32(b) != next_) fail(start, step, "step number " + std::to_string(le32(b)));
        uint64_t adds = le32(b + 4), moves = le32(b + 8), removes = le32(b + 12);
        if (adds + moves + removes > info_.objects) fail(start + 4, step, "more operations than objects");
        for (uint64_t i = 0; i < adds; i++) {
            long at = off_;
            read(b, 56, step, "reading an add");
            uint32_t flags = le32(b + 4);
            if (flags & ~1u) fail(at + 4, step, "unknown flags");
            TraceAdd a{le32(b), (flags & 1) != 0, box(b + 8, at + 8, step)};
            op(a.id, 'a', at, step);
            s.add.push_back(a);
        }
        for (uint64_t i = 0; i < moves; i++) {
            long at = off_;
            read(b, 52, step, "reading a move");
            TraceMove m{le32(b), box(b + 4, at + 4, step)};
            op(m.id, 'm', at, step);
            s.move.push_back(m);
        }
        for (uint64_t i = 0; i < removes; i++) {
            long at = off_;
            read(b, 4, step, "reading a remove");
            uint32_t id = le32(b);
            op(id, 'r', at, step);
            s.remove.push_back(id);
        }
        next_++;
        return true;
    }

    // scan reads the whole trace once, checking it and taking the bounds of
    // its boxes into the info; the reader is then at its end.
    void scan() {
        TraceStep s;
        bool any = false;
        auto take = [&](const TraceBox& b) {
            for (int k = 0; k < 3; k++) {
                if (!any || b.lo[k] < info_.lo[k]) info_.lo[k] = b.lo[k];
                if (!any || b.hi[k] > info_.hi[k]) info_.hi[k] = b.hi[k];
            }
            any = true;
        };
        while (next(s)) {
            for (const TraceAdd& a : s.add) take(a.box);
            for (const TraceMove& m : s.move) take(m.box);
        }
    }

private:
    static uint32_t le32(const unsigned char* p) {
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    static double f64(const unsigned char* p) {
        uint64_t u = 0;
        for (int i = 7; i >= 0; i--) u = u << 8 | p[i];
        double d;
        std::memcpy(&d, &u, 8);
        return d;
    }

    [[noreturn]] void fail(long off, long step, const std::string& msg) const {
        std::string where = step < 0 ? "header" : "step " + std::to_string(step);
        throw InputError(path_ + ": offset " + std::to_string(off) + " (" + where + "): " + msg);
    }

    void read(unsigned char* b, std::size_t n, long step, const char* what) {
        if (std::fread(b, 1, n, f_) != n) {
            if (std::ferror(f_)) fail(off_, step, std::string(what) + ": " + std::strerror(errno));
            fail(off_, step, std::string("truncated file, ") + what);
        }
        off_ += long(n);
    }

    TraceBox box(const unsigned char* p, long at, long step) const {
        TraceBox b;
        for (int k = 0; k < 3; k++) {
            b.lo[k] = f64(p + 8 * k);
            b.hi[k] = f64(p + 24 + 8 * k);
        }
        for (int k = 0; k < 3; k++) {
            if (!std::isfinite(b.lo[k]) || !std::isfinite(b.hi[k])) fail(at, step, "a box coordinate is not finite");
            if (!(b.lo[k] <= b.hi[k])) fail(at, step, "a box has min > max");
        }
        return b;
    }

    void op(uint32_t id, char kind, long at, long step) {
        if (id >= info_.objects) fail(at, step, "id " + std::to_string(id) + " out of range");
        if (stamp_[id] == next_ + 1) fail(at, step, "id " + std::to_string(id) + " appears twice in the step");
        stamp_[id] = next_ + 1;
        if (kind == 'a') {
            present_[id] = 1;
        } else if (!present_[id]) {
            fail(at, step, std::string(kind == 'm' ? "move" : "remove") + " of absent id " + std::to_string(id));
        } else if (kind == 'r') {
            present_[id] = 0;
        }
    }

    std::string path_;
    std::FILE* f_ = nullptr;
    long off_ = 0;
    uint32_t next_ = 0;
    TraceInfo info_;
    std::vector<uint8_t> present_;
    std::vector<uint32_t> stamp_;
};

// --- the peers ---------------------------------------------------------------

// BroadPeer is one peer broad phase replaying a trace.
class BroadPeer {
public:
    virtual ~BroadPeer() = default;
    // update applies a step: removes, adds (an add of a present id replaces
    // it), moves (a moved static object becomes a moving one). Timed.
    virtual void update(const TraceStep& s) = 0;
    // pairs appends every pair of overlapping objects, not both static, as
    // (lo << 32 | hi), lo < hi, in any order, duplicates allowed. Timed.
    virtual void pairs(std::vector<uint64_t>& out) = 0;
};

inline uint64_t packPair(uint32_t a, uint32_t b) {
    return a < b ? uint64_t(a) << 32 | b : uint64_t(b) << 32 | a;
}

struct BroadSystem {
    std::string name;
    std::string variant;  // the library's class, for the report
    std::string pairs;    // "superset" (fattened or quantised boxes) or "overlap"
    std::unique_ptr<BroadPeer> (*make)(const TraceInfo& info, std::string& variant);
};

#ifdef HAVE_BULLET
// Bullet's btScalar may be float: boxes are rounded outwards, so that the
// float box contains the trace's box and no overlap is lost to rounding.
btScalar down(double d) {
    btScalar s = btScalar(d);
    if (double(s) > d) s = std::nextafter(s, -std::numeric_limits<btScalar>::infinity());
    return s;
}
btScalar up(double d) {
    btScalar s = btScalar(d);
    if (double(s) < d) s = std::nextafter(s, std::numeric_limits<btScalar>::infinity());
    return s;
}
btVector3 lo(const TraceBox& b) { return btVector3(down(b.lo[0]), down(b.lo[1]), down(b.lo[2])); }
btVector3 hi(const TraceBox& b) { return btVector3(up(b.hi[0]), up(b.hi[1]), up(b.hi[2])); }

// BulletBroad drives a btBroadphaseInterface. Static objects are in
// Bullet's static filter group with a mask that leaves out the static group
// (as btCollisionWorld does), so that the pair cache never holds a pair of
// two static objects; a static object that moves is made again as a moving
// one. The dispatcher is null: no collision algorithm is ever made (the
// pair cache frees a pair's algorithm only when there is one).
class BulletBroad final : public BroadPeer {
public:
    BulletBroad(std::unique_ptr<btBroadphaseInterface> bp, uint32_t objects)
        : bp_(std::move(bp)), proxy_(objects, nullptr), static_(objects, 0) {}
    ~BulletBroad() override {
        for (btBroadphaseProxy* p : proxy_)
            if (p != nullptr) bp_->destroyProxy(p, nullptr);
    }

    void update(const TraceStep& s) override {
        for (uint32_t id : s.remove) {
            bp_->destroyProxy(proxy_[id], nullptr);
            proxy_[id] = nullptr;
        }
        for (const TraceAdd& a : s.add) {
            if (proxy_[a.id] != nullptr) bp_->destroyProxy(proxy_[a.id], nullptr);
            create(a.id, a.box, a.isStatic);
        }
        for (const TraceMove& m : s.move) {
            if (static_[m.id]) {
                bp_->destroyProxy(proxy_[m.id], nullptr);
                create(m.id, m.box, false);
            } else {
                bp_->setAabb(proxy_[m.id], lo(m.box), hi(m.box), nullptr);
            }
        }
    }

    void pairs(std::vector<uint64_t>& out) override {
        bp_->calculateOverlappingPairs(nullptr);
        btOverlappingPairCache* cache = bp_->getOverlappingPairCache();
        const btBroadphasePairArray& arr = cache->getOverlappingPairArray();
        for (int i = 0, n = arr.size(); i < n; i++) {
            const btBroadphasePair& p = arr[i];
            out.push_back(packPair(uint32_t(reinterpret_cast<uintptr_t>(p.m_pProxy0->m_clientObject)),
                                   uint32_t(reinterpret_cast<uintptr_t>(p.m_pProxy1->m_clientObject))));
        }
    }

private:
    void create(uint32_t id, const TraceBox& b, bool isStatic) {
        int group = isStatic ? int(btBroadphaseProxy::StaticFilter) : int(btBroadphaseProxy::DefaultFilter);
        int mask = isStatic ? int(btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter)
                            : int(btBroadphaseProxy::AllFilter);
        proxy_[id] = bp_->createProxy(lo(b), hi(b), BOX_SHAPE_PROXYTYPE, reinterpret_cast<void*>(uintptr_t(id)), group,
                                      mask, nullptr);
        static_[id] = isStatic;
    }

    std::unique_ptr<btBroadphaseInterface> bp_;
    std::vector<btBroadphaseProxy*> proxy_;
    std::vector<uint8_t> static_;
};

std::unique_ptr<BroadPeer> makeBulletDbvt(const TraceInfo& info, std::string& variant) {
    variant = "btDbvtBroadphase";
    return std::make_unique<BulletBroad>(std::make_unique<btDbvtBroadphase>(), info.objects);
}

// btAxisSweep3 quantises coordinates to 16 bits within the world bounds
// given at construction (here the trace's bounds, widened by 1/1000 of
// their extent, and by 1 on an axis of no extent), and takes at most 16383
// objects; bt32BitAxisSweep3 quantises to 32 bits. The raycast accelerator
// (a second, btDbvtBroadphase, kept beside for ray tests) is disabled.
std::unique_ptr<BroadPeer> makeBulletAxisSweep(const TraceInfo& info, std::string& variant) {
    TraceBox w;
    for (int k = 0; k < 3; k++) {
        double ext = info.hi[k] - info.lo[k];
        double pad = ext > 0 ? ext / 1000 : 1;
        w.lo[k] = info.lo[k] - pad;
        w.hi[k] = info.hi[k] + pad;
    }
    uint32_t handles = std::max<uint32_t>(info.objects + 1, 2);
    std::unique_ptr<btBroadphaseInterface> bp;
    if (handles <= 16384) {
        variant = "btAxisSweep3";
        bp = std::make_unique<btAxisSweep3>(lo(w), hi(w), (unsigned short)handles, nullptr, true);
    } else {
        variant = "bt32BitAxisSweep3";
        bp = std::make_unique<bt32BitAxisSweep3>(lo(w), hi(w), handles, nullptr, true);
    }
    return std::make_unique<BulletBroad>(std::move(bp), info.objects);
}
#endif  // HAVE_BULLET

#ifdef HAVE_FCL
// FclBox is an FCL collision object whose world box is the trace's box,
// set directly (its geometry, a unit box shared by all, is never used: no
// narrow phase runs).
class FclBox final : public fcl::CollisionObjectd {
public:
    FclBox(const std::shared_ptr<fcl::CollisionGeometryd>& g, uint32_t id) : fcl::CollisionObjectd(g), id(id) {}
    void setBox(const TraceBox& b) {
        aabb.min_ = fcl::Vector3d(b.lo[0], b.lo[1], b.lo[2]);
        aabb.max_ = fcl::Vector3d(b.hi[0], b.hi[1], b.hi[2]);
    }
    const uint32_t id;
};

bool recordPair(fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* data) {
    static_cast<std::vector<uint64_t>*>(data)->push_back(
        packPair(static_cast<FclBox*>(a)->id, static_cast<FclBox*>(b)->id));
    return false;  // go on
}

// FclQuirks says how the driver works around the bugs of FCL 0.7's
// managers. The interval tree's update(objects) never returns (its
// update(object) hands deleteNode an interval where a tree node is
// expected), and its unregisterObject truncates its endpoint arrays by
// their last two entries wherever the object's were: it is updated with
// update() (all objects, then its trees rebuilt) and, when objects leave
// it, cleared and given its remaining objects again.
template <typename M>
struct FclQuirks {
    static constexpr bool fullUpdate = false;
    static constexpr bool rebuildOnRemove = false;
};
template <>
struct FclQuirks<fcl::IntervalTreeCollisionManager<double>> {
    static constexpr bool fullUpdate = true;
    static constexpr bool rebuildOnRemove = true;
};

// FclBroad drives two FCL managers of type M, one for the moving objects
// and one for the static ones, as FCL's users do to leave out static pairs:
// the pairs are moving.collide() (moving against moving) and
// moving.collide(&fixed) (moving against static). A static object that
// moves goes over to the moving manager.
template <typename M>
class FclBroad final : public BroadPeer {
    using Quirks = FclQuirks<M>;

public:
    explicit FclBroad(uint32_t objects)
        : shape_(std::make_shared<fcl::Boxd>(1, 1, 1)), obj_(objects), static_(objects, 0) {}

    void update(const TraceStep& s) override {
        Side moving, fixed;
        auto side = [&](uint32_t id) -> Side& { return static_[id] ? fixed : moving; };
        // leave takes object id out of its manager (before its box changes:
        // the interval tree and SSaP find an object by its current box).
        auto leave = [&](uint32_t id) {
            side(id).changed = true;
            if (Quirks::rebuildOnRemove)
                side(id).rebuild = true;
            else
                manager(id).unregisterObject(obj_[id].get());
        };
        regMoving_.clear();
        regFixed_.clear();
        moved_.clear();
        for (uint32_t id : s.remove) {
            leave(id);
            dead_.push_back(std::move(obj_[id]));
        }
        for (const TraceAdd& a : s.add) {
            if (obj_[a.id]) {
                leave(a.id);
                dead_.push_back(std::move(obj_[a.id]));
            }
            obj_[a.id] = std::make_unique<FclBox>(shape_, a.id);
            obj_[a.id]->setBox(a.box);
            static_[a.id] = a.isStatic;
            side(a.id).changed = true;
            (a.isStatic ? regFixed_ : regMoving_).push_back(obj_[a.id].get());
        }
        for (const TraceMove& m : s.move) {
            FclBox* o = obj_[m.id].get();
            if (static_[m.id]) {
                leave(m.id);
                static_[m.id] = 0;
                moving.changed = true;
                regMoving_.push_back(o);
            } else {
                moved_.push_back(o);
            }
            o->setBox(m.box);
        }
        apply(moving_, moving, regMoving_, moved_, false);
        apply(fixed_, fixed, regFixed_, none_, true);
        dead_.clear();
    }

    void pairs(std::vector<uint64_t>& out) override {
        moving_.collide(&out, recordPair);
        moving_.collide(&fixed_, &out, recordPair);
    }

private:
    struct Side {
        bool changed = false;  // objects came or left
        bool rebuild = false;  // objects left a manager that is rebuilt instead
    };

    M& manager(uint32_t id) { return static_[id] ? fixed_ : moving_; }

    // apply brings manager m up to date: registrations, the update with the
    // moved objects, setup().
    void apply(M& m, const Side& side, const std::vector<fcl::CollisionObjectd*>& reg,
               const std::vector<fcl::CollisionObjectd*>& moved, bool isStatic) {
        if (side.rebuild) {
            all_.clear();
            for (std::size_t id = 0; id < obj_.size(); id++)
                if (obj_[id] && bool(static_[id]) == isStatic) all_.push_back(obj_[id].get());
            m.clear();
            m.registerObjects(all_);
            m.setup();
            return;
        }
        // registerObjects into an empty manager is a bulk build.
        if (!reg.empty()) m.registerObjects(reg);
        // update(objects) refits the moved objects; it is also called
        // after registrations and removals alone, since FCL 0.7's SaP
        // rebuilds its sorted endpoint arrays only in update and
        // registerObject (not in unregisterObject, which leaves pointers to
        // the freed endpoints there). Then setup(), which most managers'
        // update ends with, but not the interval tree's. The update is
        // called through the base class, whose update(objects) is update()
        // for the managers that do not override it (SSaP).
        if (!moved.empty() || side.changed) {
            fcl::BroadPhaseCollisionManagerd& base = m;
            if (Quirks::fullUpdate)
                base.update();
            else
                base.update(moved);
            m.setup();
        }
    }

    std::shared_ptr<fcl::CollisionGeometryd> shape_;
    std::vector<std::unique_ptr<FclBox>> obj_;
    std::vector<uint8_t> static_;
    M moving_, fixed_;
    std::vector<fcl::CollisionObjectd*> regMoving_, regFixed_, moved_, none_, all_;
    std::vector<std::unique_ptr<FclBox>> dead_;  // freed once out of the managers
};

template <typename M>
std::unique_ptr<BroadPeer> makeFcl(const TraceInfo& info, std::string&) {
    return std::make_unique<FclBroad<M>>(info.objects);
}
#endif  // HAVE_FCL

std::vector<BroadSystem> broadSystems() {
    std::vector<BroadSystem> out;
#ifdef HAVE_BULLET
    out.push_back({"bullet-dbvt", "btDbvtBroadphase", "superset", makeBulletDbvt});
    out.push_back({"bullet-axissweep3", "btAxisSweep3 (bt32BitAxisSweep3 over 16383 objects)", "superset",
                   makeBulletAxisSweep});
#endif
#ifdef HAVE_FCL
    out.push_back({"fcl-dynamic-aabb", "fcl::DynamicAABBTreeCollisionManager<double>", "overlap",
                   makeFcl<fcl::DynamicAABBTreeCollisionManager<double>>});
    out.push_back({"fcl-dynamic-aabb-array", "fcl::DynamicAABBTreeCollisionManager_Array<double>", "overlap",
                   makeFcl<fcl::DynamicAABBTreeCollisionManager_Array<double>>});
    out.push_back({"fcl-sap", "fcl::SaPCollisionManager<double>", "overlap", makeFcl<fcl::SaPCollisionManager<double>>});
    out.push_back({"fcl-ssap", "fcl::SSaPCollisionManager<double>", "overlap",
                   makeFcl<fcl::SSaPCollisionManager<double>>});
    out.push_back({"fcl-interval-tree", "fcl::IntervalTreeCollisionManager<double>", "overlap",
                   makeFcl<fcl::IntervalTreeCollisionManager<double>>});
#endif
    return out;
}

// --- output ------------------------------------------------------------------

// Line builds one JSON line.
class Line {
public:
    Line& raw(const char* s) {
        buf_ += s;
        return *this;
    }
    Line& str(const std::string& s) {
        buf_ += '"';
        for (char c : s) {
            if (c == '"' || c == '\\') buf_ += '\\';
            buf_ += c;
        }
        buf_ += '"';
        return *this;
    }
    Line& num(uint64_t x) {
        char tmp[24];
        int n = 0;
        do {
            tmp[n++] = char('0' + x % 10);
            x /= 10;
        } while (x != 0);
        while (n > 0) buf_ += tmp[--n];
        return *this;
    }
    void end() {
        buf_ += '\n';
        std::fwrite(buf_.data(), 1, buf_.size(), stdout);
        buf_.clear();
    }

private:
    std::string buf_;
};

using Clock = std::chrono::steady_clock;

uint64_t nanos(Clock::time_point a, Clock::time_point b) {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
}

// fnv1a hashes the sorted pairs, each as two little-endian uint32 (lo, hi):
// 64-bit FNV-1a, as bench/broadpeers.go computes it.
uint64_t fnv1a(const std::vector<uint64_t>& pairs) {
    uint64_t h = 14695981039346656037ull;
    for (uint64_t p : pairs) {
        uint32_t w[2] = {uint32_t(p >> 32), uint32_t(p)};
        for (uint32_t x : w) {
            for (int i = 0; i < 4; i++) {
                h ^= (x >> (8 * i)) & 0xff;
                h *= 1099511628211ull;
            }
        }
    }
    return h;
}

}  // namespace

void listBroad() {
    Line out;
    for (const BroadSystem& s : broadSystems()) {
        out.raw("{\"system\":").str(s.name).raw(",\"variant\":").str(s.variant).raw(",\"pairs\":").str(s.pairs).raw("}");
        out.end();
    }
}

bool haveBroad(const std::string& name) {
    for (const BroadSystem& s : broadSystems())
        if (s.name == name) return true;
    return false;
}

std::string broadNames() {
    std::string known;
    for (const BroadSystem& s : broadSystems()) known += (known.empty() ? "" : " ") + s.name;
    return known;
}

void runBroad(const std::string& name, bool hash, const std::string& path) {
    const BroadSystem* sys = nullptr;
    std::vector<BroadSystem> all = broadSystems();
    for (const BroadSystem& s : all)
        if (s.name == name) sys = &s;
    if (sys == nullptr) throw std::logic_error("unknown broad system " + name);

    // A first pass checks the whole trace (a bad file fails before any
    // output) and takes its bounds; the second replays it.
    TraceInfo info;
    {
        TraceReader scan(path);
        scan.scan();
        info = scan.info();
    }
    TraceReader trace(path);
    TraceStep step;
    std::vector<uint64_t> pairs;
    std::string variant = sys->variant;

    // bytes is the heap the peer holds: the heap in use over that before
    // it was made, less the driver's own step and pair buffers.
    std::size_t before = heap::inUse();
    auto bytes = [&] {
        std::size_t own = pairs.capacity() * sizeof(uint64_t) + step.add.capacity() * sizeof(TraceAdd) +
                          step.move.capacity() * sizeof(TraceMove) + step.remove.capacity() * sizeof(uint32_t);
        std::size_t now = heap::inUse();
        return uint64_t(now > before + own ? now - before - own : 0);
    };
    Clock::time_point t0 = Clock::now();
    std::unique_ptr<BroadPeer> peer = sys->make(info, variant);
    Clock::time_point t1 = Clock::now();

    Line out;
    out.raw("{\"broad\":{\"system\":").str(sys->name).raw(",\"variant\":").str(variant);
    out.raw(",\"objects\":").num(info.objects).raw(",\"steps\":").num(info.steps);
    out.raw(",\"setup_ns\":").num(nanos(t0, t1)).raw(",\"bytes\":").num(bytes()).raw("}}");
    out.end();

    pairs.reserve(1 << 16);
    for (uint32_t i = 0; trace.next(step); i++) {
        pairs.clear();
        Clock::time_point a = Clock::now();
        peer->update(step);
        Clock::time_point b = Clock::now();
        peer->pairs(pairs);
        Clock::time_point c = Clock::now();
        uint64_t mem = bytes();
        std::size_t reported = pairs.size();
        std::sort(pairs.begin(), pairs.end());
        pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());

        out.raw("{\"step\":").num(i).raw(",\"update_ns\":").num(nanos(a, b)).raw(",\"pairs_ns\":").num(nanos(b, c));
        out.raw(",\"reported\":").num(reported).raw(",\"distinct\":").num(pairs.size()).raw(",\"bytes\":").num(mem);
        if (hash) {
            char h[24];
            std::snprintf(h, sizeof h, "%016llx", (unsigned long long)fnv1a(pairs));
            out.raw(",\"hash\":\"").raw(h).raw("\"}");
        } else {
            out.raw(",\"pairs\":[");
            for (std::size_t k = 0; k < pairs.size(); k++) {
                if (k > 0) out.raw(",");
                out.raw("[").num(pairs[k] >> 32).raw(",").num(pairs[k] & 0xffffffffu).raw("]");
            }
            out.raw("]}");
        }
        out.end();
    }
}

}  // namespace peers
