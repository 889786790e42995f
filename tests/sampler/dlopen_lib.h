/* The function of the dlopen'ed test library (see dlopen_lib.c). */
#ifndef DLOPEN_LIB_H
#define DLOPEN_LIB_H

/* Loops forever inside the library. */
void dlopened_spin(void);

#endif
