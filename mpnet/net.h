/* net.h -- the MP net as a readable place/transition net (placeholder). */
#ifndef ENS_NET_H
#define ENS_NET_H

#include "mpnet.h"

#endif
