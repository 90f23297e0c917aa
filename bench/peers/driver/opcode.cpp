// opcode.cpp: OPCODE 1.3's AABB tree collider (Opcode::AABBTreeCollider)
// between two Opcode::Model, as shipped inside libode (ODE 0.16). The
// OPCODE headers are not packaged; build.sh takes them from ODE's source
// tarball, which matches the library.
//
// The models are built with OPCODE's default OPCODECREATE settings:
// no-leaf, quantized trees, split at the geometric center along the axis of
// largest variance ("splatter points"). Their MeshInterface points at the
// driver's arrays: double vertices (SetSingle(false), 24-byte stride) and
// int32 index triples, read as floats at each primitive test. Both the full
// box-box and the full primitive-box tests are on.
//
// System "opcode" runs without temporal coherence, in mode "first"
// (SetFirstContact(true)) or "all". System "opcode-tc" turns temporal
// coherence on with one BVTCache kept across all the poses of the run: the
// pair found at the previous pose is tested first. OPCODE only supports that
// in first-contact mode.
//
// OPCODE's Matrix4x4 is row-vector style: a point is transformed as p * M,
// so M[i][j] = R[j][i] and the translation is M[3][0..2].

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "peer.h"

#include "Opcode.h"

namespace peers {
namespace {

class OpcodePeer final : public Peer {
public:
    OpcodePeer(bool all, bool coherent) {
        Opcode::InitOpcode();
        collider_.SetFirstContact(!all);
        collider_.SetTemporalCoherence(coherent);
        collider_.SetFullBoxBoxTest(true);
        collider_.SetFullPrimBoxTest(true);
        if (const char* err = collider_.ValidateSettings()) throw std::runtime_error(std::string("opcode: ") + err);
    }

    void build(const Mesh& env, const Mesh& fly) override {
        buildModel(envMesh_, envModel_, env);
        buildModel(flyMesh_, flyModel_, fly);
        cache_.Model0 = &envModel_;
        cache_.Model1 = &flyModel_;
    }

    bool referencesInput() const override { return true; }

    void query(const Pose& p, Result& r) override {
        IceMaths::Matrix4x4 world;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) world.m[i][j] = float(p.R[j][i]);
            world.m[i][3] = 0;
            world.m[3][i] = float(p.t[i]);
        }
        world.m[3][3] = 1;
        // ENV's world matrix null means the identity.
        if (!collider_.Collide(cache_, nullptr, &world)) throw std::runtime_error("opcode: the query failed");
        r.collide = collider_.GetContactStatus() != 0;
        const IceCore::Pair* pairs = collider_.GetPairs();
        for (udword i = 0, n = collider_.GetNbPairs(); i < n; i++) r.pairs.emplace_back(pairs[i].id0, pairs[i].id1);
        r.addStat("bv_tests", collider_.GetNbBVBVTests());
        r.addStat("prim_tests", collider_.GetNbPrimPrimTests());
        r.addStat("bv_prim_tests", collider_.GetNbBVPrimTests());
    }

private:
    static void buildModel(Opcode::MeshInterface& mi, Opcode::Model& model, const Mesh& m) {
        // OPCODE keeps no tree for a 1-triangle mesh, and its tree collider
        // then fails or crashes: refuse such meshes.
        if (m.numTris() < 2) throw std::runtime_error("opcode: OPCODE's tree collider needs at least 2 triangles per mesh");
        mi.SetNbTriangles(udword(m.numTris()));
        mi.SetNbVertices(udword(m.numVerts()));
        mi.SetPointers(reinterpret_cast<const IceMaths::IndexedTriangle*>(m.tris.data()),
                       reinterpret_cast<const IceMaths::Point*>(m.verts.data()));
        mi.SetSingle(false);
        if (!mi.SetStrides(3 * sizeof(int32_t), 3 * sizeof(double)))
            throw std::runtime_error("opcode: bad mesh strides");
        Opcode::OPCODECREATE create;  // defaults: no-leaf, quantized
        create.mIMesh = &mi;
        if (!model.Build(create)) throw std::runtime_error("opcode: building the model failed");
    }

    Opcode::AABBTreeCollider collider_;
    Opcode::BVTCache cache_;  // pair of models; with "opcode-tc", the last pair found
    Opcode::MeshInterface envMesh_, flyMesh_;
    Opcode::Model envModel_, flyModel_;
};

std::unique_ptr<Peer> make(const std::string& name, bool all) {
    return std::make_unique<OpcodePeer>(all, name == "opcode-tc");
}

}  // namespace

void addOpcodeSystems(std::vector<System>& out) {
    out.push_back({"opcode", true, true, true, make});
    out.push_back({"opcode-tc", true, false, true, make});
}

}  // namespace peers
