/* orrery/control.h — control header of package_exports_control and
 * package_headers_control (tests/package.cmake). It cites a source file,
 * src/control/control.c, the design notes, DESIGN.md §2, and docs/missing.md,
 * none of which is installed, and docs/present.md and orrery/control.h, which are. */
#ifndef ORRERY_CONTROL_H
#define ORRERY_CONTROL_H

int orr_control_ok(void);
int orr_control_missing(void);

#endif
