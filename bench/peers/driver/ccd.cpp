// ccd.cpp: FCL 0.7 continuous collision between two meshes
// (fcl::continuousCollide on two fcl::BVHModel<BV>), ENV static at the
// identity and FLY moving from one pose to the next.
//
// FCL's continuousCollide takes a solver (ContinuousCollisionRequest's
// ccd_solver_type) and a motion per object. What FCL 0.7 does with two
// meshes, read in /usr/include/fcl/narrowphase/continuous_collision-inl.h
// and the headers it includes (the library is built from the same
// templates):
//
//   - CCDC_CONSERVATIVE_ADVANCEMENT: the conservative advancement function
//     table has an entry for every pair of equal mesh volumes. RSS and
//     OBBRSS have traversal nodes of their own (in the relative frame);
//     the other volumes share a generic node that moves copies of both
//     meshes to world coordinates at every step, and whose volume distance
//     FCL does not implement for OBB and k-DOP trees (it prints so on every
//     volume pair); with AABB and kIOS trees it found no contact on any
//     motion of a smoke test. Only RSS and OBBRSS are offered. Advancement
//     stops when a step would be below the node's t_err (1e-5, fixed: the
//     request's toc_err is not read) and reports a contact if the time
//     reached is below 1; it starts with a discrete collide() at time 0.
//     The motion bounds of a pair of volumes are taken along one normal
//     for both objects, so an object moving toward the other gets a
//     negative bound and the pair is passed over (FCL issue #555). Motion
//     bounds exist for translations, interpolated (linear) motions, screws
//     and splines.
//   - CCDC_POLYNOMIAL_SOLVER: only CCDM_TRANS between two meshes of the
//     same volume. It adds the translation of each motion to its model's
//     own vertices, refits both trees in place (beginUpdateModel /
//     updateSubModel / endUpdateModel: the models are changed, through a
//     const_cast), and solves the vertex-face and edge-edge cubics of
//     each pair of leaves whose swept volumes overlap. The motions' start
//     transforms are not applied: the models are taken to be in world
//     coordinates already. The traversal stops at the first leaf pair with
//     a contact (its CollisionRequest asks for one contact), so the time
//     reported is that pair's earliest, not necessarily the earliest of
//     the meshes.
//   - CCDC_NAIVE: num_max_iterations (default 10) discrete collide()
//     calls at t = i / (n - 1), the first in contact giving the time.
//   - CCDC_RAY_SHOOTING: not implemented (prints a warning, returns -1).
//
// Motions: getMotionBase, which continuousCollide(tf_beg, tf_end) uses,
// makes an InterpMotion for CCDM_LINEAR whose reference point is never
// initialised (FCL PR #662), and a SplineMotion for CCDM_SPLINE whose
// constructor from two transforms is an empty TODO. The driver therefore
// makes the motions itself and calls the continuousCollide overload that
// takes them:
//
//   - CCDM_TRANS: TranslationMotion(tf_beg, tf_end): the rotation of
//     tf_beg throughout, the translation moving linearly. Only motions
//     whose two rotations are equal are run (the others are skipped).
//   - CCDM_LINEAR: InterpMotion(R1, T1, R2, T2, O = 0): the rotation turns
//     at constant speed about a fixed axis (R(t) = Rot(axis, t·angle)·R1,
//     the shorter way) and the model's origin moves linearly: the motion of
//     collide's ccd.Motion.
//   - CCDM_SCREW: ScrewMotion(tf_beg, tf_end): a screw about a fixed axis
//     in space (rotation by t·angle about the axis through p, translation
//     t·d along it). Its ends are the two poses, but in between a turning
//     motion's points move on other paths than CCDM_LINEAR's.
//
// ENV gets the same kind of motion with equal start and end (the
// identity). Solvers that change the models (the polynomial one) get them
// reset before every query (prepare, untimed): ENV's vertices as read,
// FLY's vertices moved to the start pose (the solver ignores the start
// transform), so that every motion is asked of the same models.

#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/AABB.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/math/bv/RSS.h>
#include <fcl/math/motion/interp_motion.h>
#include <fcl/math/motion/screw_motion.h>
#include <fcl/math/motion/translation_motion.h>
#include <fcl/narrowphase/continuous_collision.h>

#include "peer.h"

namespace peers {
namespace {

// MotionKind is FCL's CCDMotionType that a system uses.
enum class MotionKind { Trans, Linear, Screw };

fcl::Transform3d transformOf(const Pose& p) {
    fcl::Matrix3d R;
    R << p.R[0][0], p.R[0][1], p.R[0][2], p.R[1][0], p.R[1][1], p.R[1][2], p.R[2][0], p.R[2][1], p.R[2][2];
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    tf.linear() = R;
    tf.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
    return tf;
}

// makeMotion returns FCL's motion of the kind from a to b (see the top of
// the file).
std::unique_ptr<fcl::MotionBase<double>> makeMotion(MotionKind k, const fcl::Transform3d& a, const fcl::Transform3d& b) {
    switch (k) {
    case MotionKind::Trans:
        return std::make_unique<fcl::TranslationMotion<double>>(a, b);
    case MotionKind::Linear:
        return std::make_unique<fcl::InterpMotion<double>>(a.linear(), a.translation(), b.linear(), b.translation(),
                                                    fcl::Vector3d::Zero());
    case MotionKind::Screw:
        return std::make_unique<fcl::ScrewMotion<double>>(a, b);
    }
    throw std::logic_error("unknown motion kind");
}

bool sameRotation(const Pose& a, const Pose& b) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (a.R[i][j] != b.R[i][j]) return false;
    return true;
}

template <typename BV>
class FclCCDPeer final : public CCDPeer {
public:
    FclCCDPeer(fcl::CCDSolverType solver, MotionKind motion, bool flyFirst)
        : solver_(solver), motion_(motion), flyFirst_(flyFirst) {
        request_.ccd_solver_type = solver;
        request_.ccd_motion_type = motion == MotionKind::Trans    ? fcl::CCDM_TRANS
                                   : motion == MotionKind::Linear ? fcl::CCDM_LINEAR
                                                                  : fcl::CCDM_SCREW;
        // num_max_iterations (10), toc_err (1e-4) and gjk_solver_type keep
        // FCL's defaults.
    }

    void build(const Mesh& env, const Mesh& fly) override {
        envPoints_ = points(env);
        flyPoints_ = points(fly);
        env_ = makeModel(env, envPoints_);
        fly_ = makeModel(fly, flyPoints_);
    }

    void prepare(const Pose& from, const Pose& to, CCDResult& r) override {
        if (motion_ == MotionKind::Trans && !sameRotation(from, to)) {
            r.skipped = "CCDM_TRANS does not turn: the motion's rotations differ";
            return;
        }
        if (solver_ != fcl::CCDC_POLYNOMIAL_SOLVER) return;
        // The polynomial solver moves the models' vertices in place and
        // ignores the start transforms: reset ENV, and put FLY's vertices at
        // the start pose.
        const fcl::Transform3d a = transformOf(from);
        moved_.resize(flyPoints_.size());
        for (std::size_t i = 0; i < moved_.size(); i++) moved_[i] = a * flyPoints_[i];
        update(*env_, envPoints_);
        update(*fly_, moved_);
    }

    void query(const Pose& from, const Pose& to, CCDResult& r) override {
        fcl::Transform3d a = transformOf(from), b = transformOf(to);
        if (solver_ == fcl::CCDC_POLYNOMIAL_SOLVER) {
            // FLY's vertices are at pose from already (prepare): it moves by
            // the translation alone.
            b = fcl::Transform3d::Identity();
            b.translation() = transformOf(to).translation() - a.translation();
            a = fcl::Transform3d::Identity();
        }
        const fcl::Transform3d id = fcl::Transform3d::Identity();
        std::unique_ptr<fcl::MotionBase<double>> envMotion = makeMotion(motion_, id, id);
        std::unique_ptr<fcl::MotionBase<double>> flyMotion = makeMotion(motion_, a, b);
        fcl::ContinuousCollisionResultd result;
        result.is_collide = false;
        result.time_of_contact = 1;
        double ret = flyFirst_ ? fcl::continuousCollide<double>(fly_.get(), flyMotion.get(), env_.get(),
                                                                envMotion.get(), request_, result)
                               : fcl::continuousCollide<double>(env_.get(), envMotion.get(), fly_.get(),
                                                                flyMotion.get(), request_, result);
        if (ret < 0) throw std::runtime_error("fcl::continuousCollide returned -1 (unsupported setting)");
        r.hit = result.is_collide;
        r.toi = result.time_of_contact;
    }

private:
    static std::vector<fcl::Vector3d> points(const Mesh& m) {
        std::vector<fcl::Vector3d> p(m.numVerts());
        for (std::size_t i = 0; i < p.size(); i++)
            p[i] = fcl::Vector3d(m.verts[3 * i], m.verts[3 * i + 1], m.verts[3 * i + 2]);
        return p;
    }

    // makeModel builds the BVH of m (FCL's default splitting rule), as
    // fcl.cpp does.
    static std::shared_ptr<fcl::BVHModel<BV>> makeModel(const Mesh& m, const std::vector<fcl::Vector3d>& pts) {
        std::vector<fcl::Triangle> tris(m.numTris());
        for (std::size_t i = 0; i < tris.size(); i++)
            tris[i] = fcl::Triangle(std::size_t(m.tris[3 * i]), std::size_t(m.tris[3 * i + 1]),
                                    std::size_t(m.tris[3 * i + 2]));
        auto model = std::make_shared<fcl::BVHModel<BV>>();
        if (model->beginModel(int(tris.size()), int(pts.size())) != fcl::BVH_OK ||
            model->addSubModel(pts, tris) != fcl::BVH_OK || model->endModel() != fcl::BVH_OK)
            throw std::runtime_error("fcl: building the BVH model failed");
        return model;
    }

    // update sets the model's vertices to pts and refits its tree.
    static void update(fcl::BVHModel<BV>& m, const std::vector<fcl::Vector3d>& pts) {
        if (m.beginUpdateModel() != fcl::BVH_OK || m.updateSubModel(pts) != fcl::BVH_OK ||
            m.endUpdateModel(true, true) != fcl::BVH_OK)
            throw std::runtime_error("fcl: updating the BVH model failed");
    }

    fcl::CCDSolverType solver_;
    MotionKind motion_;
    bool flyFirst_;
    fcl::ContinuousCollisionRequestd request_;
    std::vector<fcl::Vector3d> envPoints_, flyPoints_, moved_;
    std::shared_ptr<fcl::BVHModel<BV>> env_, fly_;
};

template <typename BV, fcl::CCDSolverType solver, MotionKind motion, bool flyFirst = false>
std::unique_ptr<CCDPeer> make(const std::string&) {
    return std::make_unique<FclCCDPeer<BV>>(solver, motion, flyFirst);
}

}  // namespace

void addFclCCDSystems(std::vector<CCDSystem>& out) {
    using fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
    using fcl::CCDC_NAIVE;
    using fcl::CCDC_POLYNOMIAL_SOLVER;
    using fcl::OBBRSSd;
    using fcl::RSSd;
    constexpr auto CA = CCDC_CONSERVATIVE_ADVANCEMENT;
    constexpr auto Poly = CCDC_POLYNOMIAL_SOLVER;
    out.push_back({"fcl-ca-screw-rss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_SCREW, fcl::BVHModel<fcl::RSSd>",
                   make<RSSd, CA, MotionKind::Screw>});
    out.push_back({"fcl-ca-screw-obbrss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_SCREW, fcl::BVHModel<fcl::OBBRSSd>",
                   make<OBBRSSd, CA, MotionKind::Screw>});
    out.push_back({"fcl-ca-linear-rss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_LINEAR, fcl::BVHModel<fcl::RSSd>",
                   make<RSSd, CA, MotionKind::Linear>});
    out.push_back({"fcl-ca-linear-obbrss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_LINEAR, fcl::BVHModel<fcl::OBBRSSd>",
                   make<OBBRSSd, CA, MotionKind::Linear>});
    out.push_back({"fcl-ca-trans-rss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_TRANS, fcl::BVHModel<fcl::RSSd>",
                   make<RSSd, CA, MotionKind::Trans>});
    out.push_back({"fcl-ca-trans-obbrss", "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_TRANS, fcl::BVHModel<fcl::OBBRSSd>",
                   make<OBBRSSd, CA, MotionKind::Trans>});
    out.push_back({"fcl-ca-screw-rss-flyfirst",
                   "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_SCREW, fcl::BVHModel<fcl::RSSd>, FLY as the first object",
                   make<RSSd, CA, MotionKind::Screw, true>});
    out.push_back({"fcl-ca-linear-rss-flyfirst",
                   "CCDC_CONSERVATIVE_ADVANCEMENT, CCDM_LINEAR, fcl::BVHModel<fcl::RSSd>, FLY as the first object",
                   make<RSSd, CA, MotionKind::Linear, true>});
    out.push_back({"fcl-poly-trans-rss", "CCDC_POLYNOMIAL_SOLVER, CCDM_TRANS, fcl::BVHModel<fcl::RSSd>",
                   make<RSSd, Poly, MotionKind::Trans>});
    out.push_back({"fcl-poly-trans-obbrss", "CCDC_POLYNOMIAL_SOLVER, CCDM_TRANS, fcl::BVHModel<fcl::OBBRSSd>",
                   make<OBBRSSd, Poly, MotionKind::Trans>});
    out.push_back({"fcl-poly-trans-aabb", "CCDC_POLYNOMIAL_SOLVER, CCDM_TRANS, fcl::BVHModel<fcl::AABBd>",
                   make<fcl::AABBd, Poly, MotionKind::Trans>});
    out.push_back({"fcl-naive-linear-obbrss", "CCDC_NAIVE (10 samples), CCDM_LINEAR, fcl::BVHModel<fcl::OBBRSSd>",
                   make<OBBRSSd, CCDC_NAIVE, MotionKind::Linear>});
}

}  // namespace peers
