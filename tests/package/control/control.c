/* Control library of package_exports_control (tests/package.cmake): built
 * without Orrery's version script, it exports leaked_helper besides its orr_
 * function, and lacks orr_control_missing, which its header declares. */
int orr_control_ok(void);
int leaked_helper(void);

int orr_control_ok(void) { return 1; }
int leaked_helper(void) { return 2; }
