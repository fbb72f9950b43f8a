/* percent.h -- the one %XX codec: a byte written as '%' and two
 * upper-case hex digits, read back from upper- or lower-case ones.  Each
 * format that uses it says which bytes it escapes and whether "%00" may
 * stand for NUL: the annotated graph's text (common/pcgdot.c), a trace's
 * string fields (traceline.h, read back by trace/read.c), and an appfile
 * token and a relayed piece of output (wire.c).
 *
 * Header-only and libc-free, so that libensemble and ensemble-exec
 * (runtime/: MPI and libc only), libcommon and libtrace all compile it in
 * and none links another's library for four short functions. */
#ifndef ENS_PERCENT_H
#define ENS_PERCENT_H

/* Write byte c as "%XX" at p: the byte after it. */
static inline char *
percent_put(char *p, unsigned char c)
{
	static const char	hex[] = "0123456789ABCDEF";

	p[0] = '%';
	p[1] = hex[c >> 4];
	p[2] = hex[c & 15];
	return p + 3;
}

/* The value of a hex digit, or -1. */
static inline int
percent_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The byte that the escape at p (its '%') stands for, or -1 when two hex
 * digits do not follow; p[2] is read only when p[1] is a digit, so a NUL
 * after the '%' stops the reading. */
static inline int
percent_get(const char *p)
{
	int	hi, lo;

	if ((hi = percent_hex(p[1])) < 0 || (lo = percent_hex(p[2])) < 0)
		return -1;
	return hi << 4 | lo;
}

#endif
