/* fdio.h -- writing to a descriptor: the one write-everything loop of
 * 'ensemble run' and the trampoline (libensemble, which may not reach
 * common/, keeps its own in runtime/ens.c). */
#ifndef ENS_FDIO_H
#define ENS_FDIO_H

#include <stddef.h>

/* Write all n bytes of p on fd, again after EINTR and after a short
 * write (a pipe, a socket, a blocking write cut by a signal): 0, or -1
 * with errno set (EIO when a write wrote nothing) and what was left
 * unwritten. */
int	write_all(int fd, const void *p, size_t n);

#endif
