// fcl.cpp: FCL 0.7 mesh-mesh collision (fcl::BVHModel<BV> in
// fcl::CollisionObjectd, tested with fcl::collide) with six bounding
// volumes.
//
// Mode "first" asks for one contact (num_max_contacts = 1), mode "all" for
// every contact (num_max_contacts = SIZE_MAX). In the systems of --list
// enable_contact stays false: FCL then records one Contact per intersecting
// triangle pair, with b1 the triangle of the first object (ENV) and b2 that
// of the second (FLY), and computes no contact points. The systems of
// --list-contacts ("fcl-obbrss-contacts", ...) set enable_contact: FCL then
// also computes each pair's contact points, normal and penetration depth
// (Intersect::intersect_Triangle), the cost that collide's contact geometry
// is measured beside; they report the number of contact points as the stat
// "points". BVHModel copies the vertices and triangles.
//
// FCL 0.7 tests OBB, OBBRSS and kIOS trees in their own frames (relative
// transform). For RSS, AABB and KDOP it copies both models on every query,
// moves the copies' vertices to the world frame and refits their trees: that
// cost is part of FCL's collide() and is measured as such.

#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/AABB.h>
#include <fcl/math/bv/kDOP.h>
#include <fcl/math/bv/OBB.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/math/bv/kIOS.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/collision_object.h>

#include "peer.h"

namespace peers {
namespace {

template <typename BV>
class FclPeer final : public Peer {
public:
    FclPeer(bool all, bool contacts) {
        request_.num_max_contacts = all ? std::numeric_limits<std::size_t>::max() : 1;
        request_.enable_contact = contacts;
        contacts_ = contacts;
    }

    void build(const Mesh& env, const Mesh& fly) override {
        env_ = makeObject(env);
        fly_ = makeObject(fly);
    }

    bool referencesInput() const override { return false; }

    void query(const Pose& p, Result& r) override {
        fcl::Matrix3d R;
        R << p.R[0][0], p.R[0][1], p.R[0][2], p.R[1][0], p.R[1][1], p.R[1][2], p.R[2][0], p.R[2][1], p.R[2][2];
        fly_->setTransform(R, fcl::Vector3d(p.t[0], p.t[1], p.t[2]));
        result_.clear();
        fcl::collide(env_.get(), fly_.get(), request_, result_);
        r.collide = result_.isCollision();
        uint64_t points = 0;
        for (std::size_t i = 0, n = result_.numContacts(); i < n; i++) {
            const fcl::Contactd& c = result_.getContact(i);
            r.pairs.emplace_back(uint32_t(c.b1), uint32_t(c.b2));
            points += c.pos.allFinite() && c.normal.allFinite() ? 1 : 0;
        }
        if (contacts_) r.addStat("points", points);
    }

private:
    // makeObject builds the BVH of m (FCL's default splitting rule) in an
    // object at the identity pose.
    static std::unique_ptr<fcl::CollisionObjectd> makeObject(const Mesh& m) {
        std::vector<fcl::Vector3d> points(m.numVerts());
        for (std::size_t i = 0; i < points.size(); i++)
            points[i] = fcl::Vector3d(m.verts[3 * i], m.verts[3 * i + 1], m.verts[3 * i + 2]);
        std::vector<fcl::Triangle> tris(m.numTris());
        for (std::size_t i = 0; i < tris.size(); i++)
            tris[i] = fcl::Triangle(std::size_t(m.tris[3 * i]), std::size_t(m.tris[3 * i + 1]),
                                    std::size_t(m.tris[3 * i + 2]));
        auto model = std::make_shared<fcl::BVHModel<BV>>();
        if (model->beginModel(int(tris.size()), int(points.size())) != fcl::BVH_OK ||
            model->addSubModel(points, tris) != fcl::BVH_OK || model->endModel() != fcl::BVH_OK)
            throw std::runtime_error("fcl: building the BVH model failed");
        return std::make_unique<fcl::CollisionObjectd>(model);  // computes the AABB
    }

    fcl::CollisionRequestd request_;
    fcl::CollisionResultd result_;
    bool contacts_ = false;
    std::unique_ptr<fcl::CollisionObjectd> env_, fly_;
};

template <typename BV>
std::unique_ptr<Peer> make(const std::string&, bool all) {
    return std::make_unique<FclPeer<BV>>(all, false);
}

template <typename BV>
std::unique_ptr<Peer> makeContacts(const std::string&, bool all) {
    return std::make_unique<FclPeer<BV>>(all, true);
}

}  // namespace

void addFclSystems(std::vector<System>& out) {
    out.push_back({"fcl-obb", true, true, true, make<fcl::OBBd>});
    out.push_back({"fcl-rss", true, true, true, make<fcl::RSSd>});
    out.push_back({"fcl-obbrss", true, true, true, make<fcl::OBBRSSd>});
    out.push_back({"fcl-kios", true, true, true, make<fcl::kIOSd>});
    out.push_back({"fcl-kdop18", true, true, true, make<fcl::KDOP<double, 18>>});
    out.push_back({"fcl-aabb", true, true, true, make<fcl::AABBd>});
}

void addFclContactSystems(std::vector<System>& out) {
    out.push_back({"fcl-obb-contacts", true, true, true, makeContacts<fcl::OBBd>});
    out.push_back({"fcl-rss-contacts", true, true, true, makeContacts<fcl::RSSd>});
    out.push_back({"fcl-obbrss-contacts", true, true, true, makeContacts<fcl::OBBRSSd>});
}

}  // namespace peers
