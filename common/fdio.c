/* fdio.c -- writing to a descriptor (fdio.h). */
#include <errno.h>
#include <unistd.h>

#include "fdio.h"

int
write_all(int fd, const void *p, size_t n)
{
	const char	*s = p;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, s, n)) < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}
