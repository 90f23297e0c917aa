// bullet.cpp: Bullet 3.24 GImpact mesh-mesh collision (btGImpactMeshShape
// on both sides, btGImpactCollisionAlgorithm). Debian builds Bullet in
// single precision (btScalar is float; bullet.pc defines no
// BT_USE_DOUBLE_PRECISION, and a mismatch would not link); the flags come
// from pkg-config, so a double-precision build would be used as such.
//
// Each mesh is a btTriangleIndexVertexArray over the driver's arrays (Bullet
// keeps pointers, no copy: PHY_DOUBLE vertices, converted to btScalar as
// they are read, and PHY_INTEGER indices) in a
// btGImpactMeshShape with collision margin 0 (Bullet's default is 0.01,
// which would report pairs up to that distance apart); updateBound() builds
// its quantized box tree. A btCollisionWorld with the default collision
// configuration and a dispatcher with the GImpact algorithm registered runs
// world.contactPairTest(ENV, FLY) per pose. The objects are not added to the
// world (contactPairTest needs only the dispatcher), so no broadphase work
// is timed.
//
// contactPairTest asks the dispatcher for a "closest points" algorithm,
// which btGImpactCollisionAlgorithm::registerAlgorithm does not register
// (it registers the contact-point one only; the closest-points default for
// two concave shapes is the empty algorithm, which finds nothing). The
// GImpact algorithm is therefore registered for closest points as well.
//
// GImpact clips each pair of intersecting triangles into contact points and
// reports each point with (part, triangle index) for both objects; the
// wrapper tells which object is which. The pairs reported are those of the
// contact points, a subset of the intersecting pairs (a pair whose clipping
// gives no point is missed).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletCollisionCommon.h>

#include "peer.h"

namespace peers {
namespace {

// Contacts collects the contact points of one contactPairTest.
struct Contacts final : btCollisionWorld::ContactResultCallback {
    const btCollisionObject* env = nullptr;
    Result* result = nullptr;
    uint64_t count = 0;

    btScalar addSingleResult(btManifoldPoint&, const btCollisionObjectWrapper* w0, int, int index0,
                             const btCollisionObjectWrapper*, int, int index1) override {
        count++;
        if (w0->getCollisionObject() == env)
            result->pairs.emplace_back(uint32_t(index0), uint32_t(index1));
        else
            result->pairs.emplace_back(uint32_t(index1), uint32_t(index0));
        return 0;
    }
};

// Model is one mesh as a collision object.
struct Model {
    std::unique_ptr<btTriangleIndexVertexArray> array;
    std::unique_ptr<btGImpactMeshShape> shape;
    std::unique_ptr<btCollisionObject> object;

    explicit Model(const Mesh& m) {
        btIndexedMesh im;
        im.m_numTriangles = int(m.numTris());
        im.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(m.tris.data());
        im.m_triangleIndexStride = int(3 * sizeof(int32_t));
        im.m_numVertices = int(m.numVerts());
        im.m_vertexBase = reinterpret_cast<const unsigned char*>(m.verts.data());
        im.m_vertexStride = int(3 * sizeof(double));
        im.m_indexType = PHY_INTEGER;
        im.m_vertexType = PHY_DOUBLE;
        array = std::make_unique<btTriangleIndexVertexArray>();
        array->addIndexedMesh(im, PHY_INTEGER);
        shape = std::make_unique<btGImpactMeshShape>(array.get());
        shape->setMargin(0);
        shape->updateBound();
        object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(shape.get());
        object->getWorldTransform().setIdentity();
    }
};

class BulletPeer final : public Peer {
public:
    BulletPeer() : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &config_) {
        btGImpactCollisionAlgorithm::registerAlgorithm(&dispatcher_);
        dispatcher_.registerClosestPointsCreateFunc(GIMPACT_SHAPE_PROXYTYPE, GIMPACT_SHAPE_PROXYTYPE, &gimpact_);
    }

    void build(const Mesh& env, const Mesh& fly) override {
        env_ = std::make_unique<Model>(env);
        fly_ = std::make_unique<Model>(fly);
        contacts_.env = env_->object.get();
    }

    bool referencesInput() const override { return true; }

    void query(const Pose& p, Result& r) override {
        btMatrix3x3 basis(p.R[0][0], p.R[0][1], p.R[0][2], p.R[1][0], p.R[1][1], p.R[1][2], p.R[2][0], p.R[2][1],
                          p.R[2][2]);  // row-major
        fly_->object->setWorldTransform(btTransform(basis, btVector3(p.t[0], p.t[1], p.t[2])));
        contacts_.result = &r;
        contacts_.count = 0;
        world_.contactPairTest(env_->object.get(), fly_->object.get(), contacts_);
        r.collide = contacts_.count > 0;
        r.addStat("contacts", contacts_.count);
    }

private:
    btDefaultCollisionConfiguration config_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btCollisionWorld world_;
    btGImpactCollisionAlgorithm::CreateFunc gimpact_;
    Contacts contacts_;
    std::unique_ptr<Model> env_, fly_;
};

std::unique_ptr<Peer> make(const std::string&, bool) { return std::make_unique<BulletPeer>(); }

}  // namespace

void addBulletSystems(std::vector<System>& out) { out.push_back({"bullet", false, true, false, make}); }

}  // namespace peers
