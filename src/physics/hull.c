/* hull.c — the convex hull of a point cloud for ORR_SHAPE_CONVEX_HULL
 * (orrery/physics.h), computed by Debian's qhull (libqhull-dev, reentrant
 * libqhull_r) and handed to ODE's dCreateConvex as planes, points and
 * polygons.
 *
 * qhull runs with its 3-d defaults (exact pre-merges, C-0): coplanar facets
 * are merged, so a cube's corners give 6 square faces, not 12 triangles.
 * Only hull vertices are kept (interior points are dropped); each face lists
 * its vertices counter-clockwise seen from outside (ODE's convention), and
 * its plane is n·x = d with n the outward unit normal. Degenerate input is
 * refused before qhull sees it, with the reason: fewer than 4 points, a
 * non-finite coordinate, more than ORR_PHYSICS_MAX_HULL_POINTS, or points
 * that all coincide, lie on one line or in one plane. qhull's own error text
 * (first line) is passed on for anything it still refuses. The body origin
 * must lie inside the hull (ODE measures from it); a cloud beside it is
 * refused rather than moved. */
#define _POSIX_C_SOURCE 200809L /* open_memstream: qhull's error text */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/physics_int.h"

#ifdef ORR_HAVE_QHULL
#include <libqhull_r/qhull_ra.h>
#endif

static orr_dvec3 pt(const double *xyz, uint32_t i) { return (orr_dvec3){xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]}; }

/* Why the cloud has no 3-d hull, or NULL. Tolerances relative to its size. */
static const char *degenerate(const double *xyz, uint32_t n) {
    if (n < 4) return "a convex hull needs at least 4 points";
    if (n > ORR_PHYSICS_MAX_HULL_POINTS) return "more points than ORR_PHYSICS_MAX_HULL_POINTS";
    for (uint32_t i = 0; i < 3 * n; i++)
        if (!isfinite(xyz[i])) return "a point is not finite (NaN or infinite)";
    orr_dvec3 p0 = pt(xyz, 0), e1 = {0}, e2 = {0};
    double l1 = 0;
    for (uint32_t i = 1; i < n; i++) {
        orr_dvec3 e = orr_dvec3_sub(pt(xyz, i), p0);
        double l = orr_dvec3_length(e);
        if (l > l1) l1 = l, e1 = e;
    }
    if (!(l1 > 0)) return "all points coincide";
    double eps = 1e-9 * l1, a2 = 0;
    orr_dvec3 n2 = {0};
    for (uint32_t i = 1; i < n; i++) {
        orr_dvec3 c = orr_dvec3_cross(e1, orr_dvec3_sub(pt(xyz, i), p0));
        double a = orr_dvec3_length(c);
        if (a > a2) a2 = a, n2 = c, e2 = orr_dvec3_sub(pt(xyz, i), p0);
    }
    (void)e2;
    if (!(a2 > eps * l1)) return "all points lie on one line";
    orr_dvec3 nn = orr_dvec3_scale(n2, 1 / a2);
    double h = 0;
    for (uint32_t i = 1; i < n; i++) h = fmax(h, fabs(orr_dvec3_dot(nn, orr_dvec3_sub(pt(xyz, i), p0))));
    if (!(h > eps)) return "all points lie in one plane";
    return NULL;
}

#ifdef ORR_HAVE_QHULL
typedef struct face_vertex {
    double angle;
    unsigned index;
} face_vertex;
static int by_angle(const void *a, const void *b) {
    double x = ((const face_vertex *)a)->angle, y = ((const face_vertex *)b)->angle;
    return (x > y) - (x < y);
}

/* Fills b->hull_planes/points/polygons from qhull's result; false when out of memory. */
static bool take_hull(orr_physics_world *w, orri_body *b, qhT *qh, uint32_t *nplanes, uint32_t *npoints) {
    facetT *facet;
    vertexT *vertex, **vertexp;
    uint32_t nv = 0, nf = 0, corners = 0, widest = 0;
    FORALLvertices vertex->visitid = nv++; /* compact index of each hull vertex */
    FORALLfacets {
        uint32_t k = (uint32_t)qh_setsize(qh, facet->vertices);
        nf++, corners += k;
        if (k > widest) widest = k;
    }
    b->hull_points = orri_alloc(&w->ctx.allocator, sizeof(double) * 3 * nv + 1);
    b->hull_planes = orri_alloc(&w->ctx.allocator, sizeof(double) * 4 * nf + 1);
    b->hull_polygons = orri_alloc(&w->ctx.allocator, sizeof(unsigned) * (nf + corners) + 1);
    face_vertex *order = orri_alloc(&w->ctx.allocator, sizeof *order * widest + 1);
    if (!b->hull_points || !b->hull_planes || !b->hull_polygons || !order) {
        orri_free(&w->ctx.allocator, order);
        return false;
    }
    FORALLvertices {
        double *p = b->hull_points + 3 * vertex->visitid;
        p[0] = vertex->point[0], p[1] = vertex->point[1], p[2] = vertex->point[2];
    }
    uint32_t f = 0, at = 0;
    FORALLfacets {
        orr_dvec3 n = {facet->normal[0], facet->normal[1], facet->normal[2]};
        double *pl = b->hull_planes + 4 * f++;
        pl[0] = n.x, pl[1] = n.y, pl[2] = n.z, pl[3] = -facet->offset;
        /* Counter-clockwise about the outward normal: sort by angle around the face centre. */
        orr_dvec3 c = {0};
        uint32_t k = 0;
        FOREACHvertex_(facet->vertices) c = orr_dvec3_add(c, pt(b->hull_points, vertex->visitid)), k++;
        c = orr_dvec3_scale(c, 1.0 / k);
        orr_dvec3 u = orr_dvec3_sub(pt(b->hull_points, ((vertexT *)facet->vertices->e[0].p)->visitid), c);
        u = orr_dvec3_normalize(orr_dvec3_sub(u, orr_dvec3_scale(n, orr_dvec3_dot(u, n))));
        orr_dvec3 v = orr_dvec3_cross(n, u);
        k = 0;
        FOREACHvertex_(facet->vertices) {
            orr_dvec3 d = orr_dvec3_sub(pt(b->hull_points, vertex->visitid), c);
            order[k++] = (face_vertex){atan2(orr_dvec3_dot(d, v), orr_dvec3_dot(d, u)), vertex->visitid};
        }
        qsort(order, k, sizeof *order, by_angle);
        b->hull_polygons[at++] = k;
        for (uint32_t i = 0; i < k; i++) b->hull_polygons[at++] = order[i].index;
    }
    orri_free(&w->ctx.allocator, order);
    *nplanes = nf, *npoints = nv;
    return true;
}
#endif

bool orri_hull_build(orr_physics_world *w, orri_body *b, double *xyz, uint32_t n, char *why, size_t why_size) {
    why[0] = 0;
    const char *bad = degenerate(xyz, n);
    if (bad) {
        snprintf(why, why_size, "%s (%u points)", bad, n);
        return false;
    }
#ifndef ORR_HAVE_QHULL
    (void)w, (void)b;
    snprintf(why, why_size, "built without qhull (Debian: libqhull-dev): no convex hull of a point cloud");
    return false;
#else
    char *err_text = NULL;
    size_t err_size = 0;
    FILE *err = open_memstream(&err_text, &err_size);
    if (!err) return false; /* out of memory: the caller reports it */
    qhT qh_qh, *qh = &qh_qh;
    qh_zero(qh, err);
    char options[] = "qhull"; /* 3-d defaults: Qx pre-merges, C-0 */
    int code = qh_new_qhull(qh, 3, (int)n, xyz, False, options, NULL, err);
    bool ok = false;
    uint32_t nplanes = 0, npoints = 0;
    if (code == qh_ERRnone) ok = take_hull(w, b, qh, &nplanes, &npoints);
    qh_freeqhull(qh, !qh_ALL);
    int curlong, totlong;
    qh_memfreeshort(qh, &curlong, &totlong);
    fclose(err);
    if (code != qh_ERRnone) {
        const char *t = err_text ? err_text : "";
        while (*t == '\n' || *t == ' ') t++;
        size_t len = strcspn(t, "\n");
        snprintf(why, why_size, "qhull refused the %u points (error %d: %.*s)", n, code, (int)(len > 160 ? 160 : len),
                 t);
    }
    free(err_text);
    if (!ok) return false;
    /* ODE's convex collider measures from the body origin (the centre of
     * mass): it must lie strictly inside every face. */
    double scale = 0;
    for (uint32_t i = 0; i < 3 * n; i++) scale = fmax(scale, fabs(xyz[i]));
    for (uint32_t f = 0; f < nplanes; f++) {
        if (b->hull_planes[4 * f + 3] > 1e-9 * scale) continue;
        snprintf(why, why_size,
                 "the body origin (0, 0, 0) is not inside the hull of the %u points (it is the centre of mass and "
                 "ODE's convex collider needs it inside: give the points relative to a point within them)",
                 n);
        return false;
    }
    b->geom = dCreateConvex(0, b->hull_planes, nplanes, b->hull_points, npoints, b->hull_polygons);
    b->hull_plane_count = nplanes, b->hull_point_count = npoints;
    return b->geom != NULL;
#endif
}
