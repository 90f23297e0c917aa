// ode.cpp: ODE 0.16's trimesh-trimesh collider (dCollide between two
// dTriMesh geoms, OPCODE inside), double precision as Debian builds it.
//
// The trimesh data is built with dGeomTriMeshDataBuildDouble over the
// driver's arrays (ODE keeps pointers to them, no copy), then each geom gets
// its OPCODE model. ENV stays at the identity; each pose sets FLY's position
// and rotation. ODE's dMatrix3 is row-major with rows padded to 4 dReal:
// R[i*4+j] is row i, column j, and a point is transformed as R p + t.
//
// dCollide is asked for up to 0xffff contacts (the most its flags allow).
// ODE computes contact points by clipping the intersecting triangles and
// merges close points: a merged contact's side1/side2 become -1, and each
// triangle pair yields at most a few points, so the pairs reported (the
// distinct (side1, side2) >= 0) are a subset of the intersecting pairs.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <ode/ode.h>

#include "peer.h"

namespace peers {
namespace {

constexpr int kMaxContacts = 0xffff;  // the contact count field of dCollide's flags

// initODE initializes ODE once per process, with its collision data for the
// calling thread.
void initODE() {
    static const bool done = [] {
        dInitODE2(0);
        if (!dAllocateODEDataForThread(dAllocateMaskAll)) throw std::runtime_error("ode: initialization failed");
        // The headers default to double precision; the library must agree.
        if (!dCheckConfiguration("ODE_double_precision"))
            throw std::runtime_error("ode: libode is not built with double precision (" +
                                     std::string(dGetConfiguration()) + ")");
        return true;
    }();
    (void)done;
}

class OdePeer final : public Peer {
public:
    OdePeer() : contacts_(kMaxContacts) { initODE(); }

    ~OdePeer() override {
        if (flyGeom_) dGeomDestroy(flyGeom_);
        if (envGeom_) dGeomDestroy(envGeom_);
        if (flyData_) dGeomTriMeshDataDestroy(flyData_);
        if (envData_) dGeomTriMeshDataDestroy(envData_);
    }

    void build(const Mesh& env, const Mesh& fly) override {
        // ODE's trimesh-trimesh collider runs OPCODE's tree collider, which
        // fails or crashes on a 1-triangle mesh (OPCODE keeps no tree for it).
        if (env.numTris() < 2 || fly.numTris() < 2)
            throw std::runtime_error("ode: the trimesh-trimesh collider needs at least 2 triangles per mesh");
        envData_ = makeData(env);
        envGeom_ = dCreateTriMesh(nullptr, envData_, nullptr, nullptr, nullptr);
        flyData_ = makeData(fly);
        flyGeom_ = dCreateTriMesh(nullptr, flyData_, nullptr, nullptr, nullptr);
    }

    bool referencesInput() const override { return true; }

    void query(const Pose& p, Result& r) override {
        dMatrix3 R;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) R[i * 4 + j] = p.R[i][j];
            R[i * 4 + 3] = 0;
        }
        dGeomSetRotation(flyGeom_, R);
        dGeomSetPosition(flyGeom_, p.t[0], p.t[1], p.t[2]);
        int n = dCollide(envGeom_, flyGeom_, kMaxContacts, contacts_.data(), sizeof(dContactGeom));
        r.collide = n > 0;
        for (int i = 0; i < n; i++) {
            const dContactGeom& c = contacts_[i];
            // side1 belongs to g1; the trimesh-trimesh collider keeps
            // g1 = ENV, but check rather than assume.
            int envSide = c.g1 == envGeom_ ? c.side1 : c.side2;
            int flySide = c.g1 == envGeom_ ? c.side2 : c.side1;
            if (envSide >= 0 && flySide >= 0) r.pairs.emplace_back(uint32_t(envSide), uint32_t(flySide));
        }
        r.addStat("contacts", uint64_t(n));
    }

private:
    static dTriMeshDataID makeData(const Mesh& m) {
        static_assert(sizeof(dTriIndex) == sizeof(int32_t), "ODE built with 16-bit trimesh indices");
        dTriMeshDataID data = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildDouble(data, m.verts.data(), int(3 * sizeof(double)), int(m.numVerts()),
                                    m.tris.data(), int(m.tris.size()), int(3 * sizeof(int32_t)));
        return data;
    }

    std::vector<dContactGeom> contacts_;  // scratch, not part of the models
    dTriMeshDataID envData_ = nullptr, flyData_ = nullptr;
    dGeomID envGeom_ = nullptr, flyGeom_ = nullptr;
};

std::unique_ptr<Peer> make(const std::string&, bool) { return std::make_unique<OdePeer>(); }

}  // namespace

void addOdeSystems(std::vector<System>& out) { out.push_back({"ode", false, true, false, make}); }

}  // namespace peers
