/*
 * collide.h: the C interface of collide, exact collision detection between
 * triangle meshes.
 *
 * Build the library with
 *
 *     go build -buildmode=c-shared -o libcollide.so ./cmd/libcollide
 *
 * (the Python package in python/ does so itself). Every function is safe to
 * call from any thread; a world serialises the calls made on it.
 *
 * Conventions
 *
 * - Objects (models, worlds, result buffers) are named by handles, never by
 *   pointers: the library keeps no pointer of the caller's and hands out
 *   none of its own. collide_free releases any handle; 0 is no object.
 * - Every function that can fail returns a status (COLLIDE_OK or one of the
 *   COLLIDE_E* codes) and writes a message into err (at most errcap bytes,
 *   NUL-terminated; err may be NULL when errcap is 0): the message the
 *   command line prints for the same problem, naming the file, the line or
 *   offset, the pose, the array element.
 * - A pose is a 4x4 matrix of doubles, row-major, [R t; 0 0 0 1]: a point x
 *   of the model goes to R x + t. R must be a rotation to within 1e-6
 *   (orthonormal, determinant +1), the last row exactly 0 0 0 1, every
 *   number finite. Arrays of n poses are 16 n doubles.
 * - Triangles are numbered from 0 in the order of the model's faces; a
 *   vertex index is in [0, number of vertices).
 * - Batch calls run on workers threads (0: every core) and return when all
 *   their work is done.
 * - No function ever aborts the process: a bad argument is an error, and
 *   a fault inside the library is COLLIDE_EINTERNAL.
 */
#ifndef COLLIDE_H
#define COLLIDE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t collide_handle;

enum {
	COLLIDE_OK = 0,
	COLLIDE_EINVAL = 1,    /* a bad argument: array shape or value, pose, handle, option */
	COLLIDE_ENOENT = 2,    /* a file does not exist */
	COLLIDE_EIO = 3,       /* a file could not be read or written (permissions, disk) */
	COLLIDE_EFORMAT = 4,   /* a file's contents are malformed (the message names line or offset) */
	COLLIDE_ECANCELED = 5, /* the call was cancelled (reserved: no call of this version can be) */
	COLLIDE_EINTERNAL = 6  /* a fault inside the library (a bug: please report it) */
};

/* collide_version returns the library's version, a static string. */
const char *collide_version(void);

/* collide_free releases the object of handle h. 0 is a no-op; a handle
   already released, or never issued, is COLLIDE_EINVAL. */
int32_t collide_free(collide_handle h, char *err, size_t errcap);

/* ---- Buffers: variable-length results (int64 or double elements) ---- */

/* collide_buffer_len returns the number of elements of buffer h, or -1 if
   h is not a buffer. Handle 0, which a call returns for no results, is the
   empty buffer: length 0, and a copy of 0 elements with either function
   below. */
int64_t collide_buffer_len(collide_handle h);

/* collide_buffer_copy copies the n elements of int64 buffer h into dst (n
   must be its length). A buffer of doubles (collide_contacts') is
   COLLIDE_EINVAL, saying so: copy it with collide_buffer_copy_f64. */
int32_t collide_buffer_copy(collide_handle h, int64_t *dst, int64_t n, char *err, size_t errcap);

/* collide_buffer_copy_f64 copies the n elements of double buffer h into
   dst (n must be its length). An int64 buffer is COLLIDE_EINVAL, saying
   so: copy it with collide_buffer_copy. */
int32_t collide_buffer_copy_f64(collide_handle h, double *dst, int64_t n, char *err, size_t errcap);

/* ---- Models ---- */

/* collide_model_new builds a model of the nverts vertices verts (3 nverts
   doubles) and nfaces triangles faces (3 nfaces vertex indices), with the
   bounding volume bv ("kdop18", "obb", ... as the command line's --bv
   names them; NULL or "" is the default, kdop18). */
int32_t collide_model_new(const double *verts, int64_t nverts, const int64_t *faces, int64_t nfaces,
	const char *bv, collide_handle *model, char *err, size_t errcap);

/* collide_model_load reads the model named as the command line names one:
   a mesh file (.obj, .stl, .ply, .off, .gltf, .glb), a model saved by
   collide_model_save or `collide build`, or a generated model
   gen:KIND[:key=value,...]. bv as for collide_model_new; a saved model keeps
   its own volume, and a bv that differs is COLLIDE_EINVAL. mesh (NULL or "":
   every mesh of the default scene) names the one mesh of a glTF file to read. */
int32_t collide_model_load(const char *path, const char *bv, const char *mesh,
	collide_handle *model, char *err, size_t errcap);

/* collide_model_save writes model to path, in the format `collide build`
   writes (the file is replaced only once written whole). */
int32_t collide_model_save(collide_handle model, const char *path, char *err, size_t errcap);

/* collide_model_info gives the model's numbers of vertices and triangles
   and the name of its bounding volume (into bv, at most bvcap bytes with
   the NUL; bv may be NULL). */
int32_t collide_model_info(collide_handle model, int64_t *nverts, int64_t *nfaces,
	char *bv, size_t bvcap, char *err, size_t errcap);

/* collide_model_mesh copies the model's vertices (3 nverts doubles) and
   triangles (3 nfaces indices) out; either pointer may be NULL. */
int32_t collide_model_mesh(collide_handle model, double *verts, int64_t *faces, char *err, size_t errcap);

/* ---- Batch queries: one call, n poses ---- */

/* collide_check tests fly at each of the n poses (16 n doubles) against env
   at env_pose (NULL: the identity), exactly when eps is 0, else reporting
   the pairs of triangles at distance at most eps. hits[i] (n bytes) is set
   to 1 when fly touches env at pose i, else 0.

   If pairs is not NULL it receives a buffer of int64 triples (pose index,
   env triangle, fly triangle), ordered by pose, then by env triangle, then
   by fly triangle: every pair in contact at each pose when all_pairs is not
   0, else the first pair the query found at each pose that collides (the
   pair collide.Collide finds, each pose on its own: `collide check`
   without --all prints the same for one pose, while over many poses it
   tries each pose's predecessor's pair first and may print another pair
   in contact). It is 0 when there are none. */
int32_t collide_check(collide_handle env, const double *env_pose, collide_handle fly,
	const double *poses, int64_t n, int32_t all_pairs, double eps, int32_t workers,
	uint8_t *hits, collide_handle *pairs, char *err, size_t errcap);

/* Contacts: collide_contacts' buffer holds COLLIDE_CONTACT_STRIDE doubles
   per contact, at these offsets (integers are exact in a double): */
#define COLLIDE_CONTACT_STRIDE 27
enum {
	COLLIDE_CONTACT_POSE = 0,    /* the pose's index */
	COLLIDE_CONTACT_ENV = 1,     /* env's triangle */
	COLLIDE_CONTACT_FLY = 2,     /* fly's triangle */
	COLLIDE_CONTACT_KIND = 3,    /* COLLIDE_APART, COLLIDE_TOUCH or COLLIDE_CROSS */
	COLLIDE_CONTACT_NPOINTS = 4, /* k, the number of points: 1 to 6 (2 when apart) */
	COLLIDE_CONTACT_POINTS = 5,  /* 6 points x, y, z (18 doubles): the first k, then NaN */
	COLLIDE_CONTACT_NORMAL = 23, /* the unit normal x, y, z, from env's triangle towards fly's */
	COLLIDE_CONTACT_BOUND = 26   /* each point is within bound of the exact point */
};
enum {
	COLLIDE_APART = 0, /* (eps > 0 only) within eps, not touching: the two closest points, env's then fly's */
	COLLIDE_TOUCH = 1, /* touching: some plane weakly separates the triangles */
	COLLIDE_CROSS = 2  /* crossing: the triangles' interiors meet */
};

/* collide_contacts computes, at each of the n poses of fly (16 n doubles)
   against env at env_pose (NULL: the identity), the contact geometry of the
   pairs collide_check reports with the same all_pairs and eps, in the same
   order (by pose, env triangle, fly triangle): each pose's the single
   query's (collide.Collide with QueryOptions.Contacts). out receives a
   buffer of doubles, COLLIDE_CONTACT_STRIDE per contact (0 when there are
   none): the points where the triangles meet (the shared point, segment or
   coplanar polygon) and normal in the common frame (env's when env_pose is
   NULL), as `collide check --contacts` prints them. */
int32_t collide_contacts(collide_handle env, const double *env_pose, collide_handle fly,
	const double *poses, int64_t n, int32_t all_pairs, double eps, int32_t workers,
	collide_handle *out, char *err, size_t errcap);

/* collide_distance computes, at each of the n poses, the distance between
   env (at env_pose, NULL: the identity) and fly: dist[i], within bound[i]
   of the exact distance (0 on contact). witness (6 n doubles: env's point
   then fly's, in the common frame) and tris (2 n: env triangle, fly
   triangle) may be NULL. max > 0 stops the search at distance max: farther
   poses give +inf, witnesses NaN and triangles -1 (max = +inf: no limit). */
int32_t collide_distance(collide_handle env, const double *env_pose, collide_handle fly,
	const double *poses, int64_t n, double max, int32_t workers,
	double *dist, double *bound, double *witness, int64_t *tris, char *err, size_t errcap);

/* collide_time_of_impact computes, for each of the n motions of fly from
   pose from[i] to pose to[i] (screw motions, as collide.Impact), whether it
   touches env (at env_pose, NULL: the identity): hit[i] = 1, with the
   earliest time of contact in [toi[2i], toi[2i+1]] (times in [0, 1]) and
   two triangles that touch then in tris[2i], tris[2i+1]. Without a hit,
   hit[i] = 0, toi is [1, 1] and tris -1, -1; maybe (NULL or n bytes) is 1
   where a turning motion passes within rounding of env and nothing is
   proved (collide.TOIResult.Maybe). */
int32_t collide_time_of_impact(collide_handle env, const double *env_pose, collide_handle fly,
	const double *from, const double *to, int64_t n, int32_t workers,
	uint8_t *hit, double *toi, int64_t *tris, uint8_t *maybe, char *err, size_t errcap);

/* ---- Worlds: many objects, broad phase, contacts by step ---- */

/* collide_world_new makes an empty world (package world): all_pairs asks
   for every triangle pair of each pair of objects in contact (else the
   first found), eps as for collide_check, broad the broad phase ("sap",
   "grid", ... as `collide world --broad` names them; NULL or "" the
   default), workers the threads of a step's exact tests (0: every core). */
int32_t collide_world_new(int32_t all_pairs, double eps, const char *broad, int32_t workers,
	collide_handle *world, char *err, size_t errcap);

/* collide_world_add adds an object of model at pose; is_static objects are
   never tested against each other. group is its group in [0, 1024). Its id
   (>= 0) is written to id. */
int32_t collide_world_add(collide_handle world, collide_handle model, const double *pose,
	int32_t is_static, int32_t group, int64_t *id, char *err, size_t errcap);

/* collide_world_move moves the n objects ids to poses (16 n doubles). Every
   id and pose is checked first: a call that fails moves nothing. */
int32_t collide_world_move(collide_handle world, const int64_t *ids, const double *poses, int64_t n,
	char *err, size_t errcap);

/* collide_world_remove removes object id. */
int32_t collide_world_remove(collide_handle world, int64_t id, char *err, size_t errcap);

/* collide_world_step tests the objects moved since the last step. Each of
   the three buffers may be NULL (not wanted) and receives 0 when empty:
   contacts: int64 quadruples (a, b, triangle of a, triangle of b), a < b,
     for every pair of objects in contact after the step and each of its
     triangle pairs, ordered by a, b, then the triangles;
   began, ended: int64 pairs (a, b), a < b, of the pairs of objects that
     started or stopped touching at this step, ordered. */
int32_t collide_world_step(collide_handle world, collide_handle *contacts, collide_handle *began,
	collide_handle *ended, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif

#endif /* COLLIDE_H */
