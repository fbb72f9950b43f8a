/* pnml.c -- PNML export (placeholder). */
#include "config.h"

#include "net.h"

typedef int pnml_placeholder_t;
