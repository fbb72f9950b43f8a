/* net.c -- the MP net as a place/transition net (placeholder). */
#include "config.h"

#include "net.h"

typedef int net_placeholder_t;
