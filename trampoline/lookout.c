/* lookout.c -- the trampoline's part of the run's deadlock watch
 * (lookout.h): the memory file the component maps its slot from, and on a
 * host without 'ensemble run', the readings of that slot that tell
 * 'ensemble run' when the component is blocked (the test is
 * wire_slot_blocked, the one 'ensemble run' makes of the slots it reads
 * itself). */
#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "lookout.h"

/* 'ensemble run''s memory file, when this is its host and the file is the
 * run's (its head's magic and secret): its descriptor, or -1. */
static int
lookout_theirs(const char *token, const char *secret, const char *host)
{
	struct wire_watch_head	 h;
	struct stat		 st;
	char			 path[64], *end;
	const char		*colon;
	long			 pid, fd;
	int			 f;

	errno = 0;
	pid = strtol(token, &end, 10);
	if (end == token || *end != ':' || errno != 0 || pid <= 0)
		return -1;
	fd = strtol(end + 1, &end, 10);
	if (*end != ':' || errno != 0 || fd < 0 || fd > 65535)
		return -1;
	colon = end + 1;
	if (strcmp(colon, host) != 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/fd/%ld", pid, fd);
	if ((f = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 2 * WIRE_SLOT_SIZE ||
	    pread(f, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h.magic != WIRE_WATCH_MAGIC ||
	    strncmp(h.secret, secret, sizeof(h.secret)) != 0 ||
	    h.secret[sizeof(h.secret) - 1] != '\0') {
		close(f);
		return -1;
	}
	return f;
}

int
lookout_open(struct lookout *lo, const char *token, const char *secret,
    const char *host)
{
	struct wire_watch_head	*h;
	void			*p;

	memset(lo, 0, sizeof(*lo));
	lo->fd = -1;
	if (token == NULL || secret == NULL)
		return -1;
	if ((lo->fd = lookout_theirs(token, secret, host)) >= 0)
		return lo->fd;
	/* Another host: a file of one slot, ours to read. */
	if ((lo->fd = memfd_create("ensemble-slot", MFD_CLOEXEC)) < 0)
		return -1;
	if (ftruncate(lo->fd, 2 * WIRE_SLOT_SIZE) != 0 ||
	    (p = mmap(NULL, 2 * WIRE_SLOT_SIZE, PROT_READ | PROT_WRITE,
	    MAP_SHARED, lo->fd, 0)) == MAP_FAILED) {
		close(lo->fd);
		return lo->fd = -1;
	}
	h = p;
	h->magic = WIRE_WATCH_MAGIC;
	h->nslots = 1;
	snprintf(h->secret, sizeof(h->secret), "%s", secret);
	lo->slot = (struct wire_slot *)((char *)p + WIRE_SLOT_SIZE);
	lo->next = clock_now() + WIRE_WATCH_PERIOD;
	return lo->fd;
}

double
lookout_wait(const struct lookout *lo)
{
	double	left;

	if (lo->slot == NULL)
		return -1;
	left = lo->next - clock_now();
	return left > 0 ? left : 0;
}

void
lookout_read(struct lookout *lo, pid_t pid, struct wire_buf *out)
{
	struct wire_slot	 s;
	unsigned long long	 ran;
	char			 num[32];
	int			 blocked;

	if (lo->slot == NULL || clock_now() < lo->next)
		return;
	lo->next = clock_now() + WIRE_WATCH_PERIOD;
	if (wire_slot_read(lo->slot, &s) != 0 || s.pid <= 0) {
		memset(&s, 0, sizeof(s));
		blocked = 0;
		s.gen = lo->last.gen + 1;	/* no reading: not the same */
		ran = 0;
	} else {
		ran = s.call != WC_NONE ? clock_ran((int)pid) : 0;
		blocked = lo->have && wire_slot_blocked(&lo->last, lo->ran,
		    &s, ran);
	}
	if (lo->said && (!blocked || s.gen != lo->last.gen)) {
		snprintf(num, sizeof(num), "%lu", (unsigned long)lo->last.gen);
		if (wire_put_bytes(out, WIRE_WORD_UNBLOCKED " ", strlen(
		    WIRE_WORD_UNBLOCKED " ")) != 0 ||
		    wire_put_bytes(out, num, strlen(num)) != 0 ||
		    wire_put_bytes(out, "\n", 1) != 0)
			return;
		lo->said = 0;
	}
	if (blocked && !lo->said) {
		if (wire_put_bytes(out, WIRE_WORD_BLOCKED " ", strlen(
		    WIRE_WORD_BLOCKED " ")) != 0 || wire_slot_put(out, &s) != 0 ||
		    wire_put_bytes(out, "\n", 1) != 0)
			return;
		lo->said = 1;
	}
	lo->last = s;
	lo->ran = ran;
	lo->have = s.pid > 0;
}
