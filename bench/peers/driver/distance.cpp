// distance.cpp: FCL 0.7 mesh-mesh distance (fcl::BVHModel<BV> in
// fcl::CollisionObjectd, queried with fcl::distance) with the two bounding
// volumes FCL offers for it that collide also has: RSS and OBBRSS (FCL's
// BVH-BVH distance exists only for RSS, kIOS and OBBRSS).
//
// The request asks for FCL's exact answer: enable_nearest_points, rel_err = 0
// and abs_err = 0 (no early stop on an approximate distance), and
// enable_signed_distance stays false (the default): with it FCL would replace
// the distance of overlapping meshes by minus the largest penetration depth
// of collide()'s triangle contacts, which is not a distance of triangles.
//
// What FCL 0.7 returns (read in /usr/include/fcl, the headers of the
// library's own explicit instantiations):
//
//   - b1, b2: the primitive ids of the closest pair, indices into the
//     triangle arrays given to addSubModel (the BVH build permutes its own
//     primitive index array, not the triangles): ENV's and FLY's triangle
//     numbers, as the driver builds them in file order.
//   - nearest_points: MeshDistanceTraversalNode{RSS,OBBRSS} compute both
//     points in object 1's frame (FLY's triangle is moved by the relative
//     transform tf1^-1 tf2 before TriangleDistance::triDistance), and
//     distancePostprocessOrientedNode maps both by tf1: they are in the world
//     frame. ENV is object 1 at the identity, so world = ENV's frame and no
//     conversion is needed. (FCL issue #171 says meshes used world and shapes
//     local coordinates before PR #288, FCL 0.6; issue #382 is still open on
//     the question; the witness check in package bench tests it.)
//   - overlapping meshes: TriangleDistance::triDistance returns 0 for two
//     triangles it cannot show disjoint, and leaves in its output points the
//     closest points of the last pair of edges it examined (it uses them as
//     scratch for segPoints): the distance is 0, b1 and b2 name a pair that
//     overlaps (the first found: once the minimum is 0 every node is
//     pruned), and nearest_points lie on those two triangles but are not a
//     common point (|p_env - p_fly| > 0 in general). The driver prints them
//     as they are (null if one were not finite). FCL never returns -1 or a
//     negative distance for meshes here: the pair (0, 0) is measured before
//     the traversal, so there always is an answer.

#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/distance.h>

#include "peer.h"

namespace peers {
namespace {

template <typename BV>
class FclDistancePeer final : public DistancePeer {
public:
    FclDistancePeer() {
        request_.enable_nearest_points = true;
        request_.enable_signed_distance = false;
        request_.rel_err = 0;
        request_.abs_err = 0;
    }

    void build(const Mesh& env, const Mesh& fly) override {
        env_ = makeObject(env);
        fly_ = makeObject(fly);
    }

    void query(const Pose& p, DistanceResult& r) override {
        fcl::Matrix3d R;
        R << p.R[0][0], p.R[0][1], p.R[0][2], p.R[1][0], p.R[1][1], p.R[1][2], p.R[2][0], p.R[2][1], p.R[2][2];
        fly_->setTransform(R, fcl::Vector3d(p.t[0], p.t[1], p.t[2]));
        result_.clear();
        r.distance = fcl::distance(env_.get(), fly_.get(), request_, result_);
        r.env = result_.b1;
        r.fly = result_.b2;
        for (int k = 0; k < 3; k++) {
            r.pEnv[k] = result_.nearest_points[0][k];
            r.pFly[k] = result_.nearest_points[1][k];
        }
    }

private:
    // makeObject builds the BVH of m (FCL's default splitting rule) in an
    // object at the identity pose, as fcl.cpp does.
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
        return std::make_unique<fcl::CollisionObjectd>(model);
    }

    fcl::DistanceRequestd request_;
    fcl::DistanceResultd result_;
    std::unique_ptr<fcl::CollisionObjectd> env_, fly_;
};

template <typename BV>
std::unique_ptr<DistancePeer> make(const std::string&) {
    return std::make_unique<FclDistancePeer<BV>>();
}

}  // namespace

void addFclDistanceSystems(std::vector<DistanceSystem>& out) {
    out.push_back({"fcl-rss", "fcl::distance, fcl::BVHModel<fcl::RSSd>", make<fcl::RSSd>});
    out.push_back({"fcl-obbrss", "fcl::distance, fcl::BVHModel<fcl::OBBRSSd>", make<fcl::OBBRSSd>});
}

}  // namespace peers
