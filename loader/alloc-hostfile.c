/* alloc-hostfile.c -- a hostfile read as Open MPI 4.1 reads it (see
 * alloc-hostfile.h), by a scanner that follows the rules of Open MPI's
 * flex scanner (orte/util/hostfile/hostfile_lex.l: longest match, the
 * earlier rule on a tie) and a parser that follows
 * orte/util/hostfile/hostfile.c token by token, quirks included: a host
 * listed again adds a slot, a line without slots= leaves the count to
 * Open MPI (the host's cores), a comment on the last line needs its
 * newline.  It differs only where Open MPI would go wrong: a number past
 * INT_MAX, which Open MPI truncates, and what it reports but goes on
 * after, are errors here. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc.h"
#include "alloc-hostfile.h"
#include "alloc-machine.h"
#include "xmalloc.h"

/* Open MPI's tokens (orte/util/hostfile/hostfile_lex.h), with its numbers,
 * which its parse errors print. */
enum hf_tok {
	HF_DONE = 0, HF_ERROR = 1, HF_QUOTED = 2, HF_EQUAL = 3, HF_INT = 4,
	HF_STRING = 5, HF_CPU = 6, HF_COUNT = 7, HF_SLOTS = 8,
	HF_SLOTS_MAX = 9, HF_USERNAME = 10, HF_IPV4 = 11, HF_HOSTNAME = 12,
	HF_NEWLINE = 13, HF_IPV6 = 14, HF_SLOT = 15, HF_RELATIVE = 16,
	HF_BOARDS = 17, HF_SOCKETS = 18, HF_CORES = 19, HF_RANK = 20,
	HF_PORT = 21,
};

/* The keywords, in the order of the scanner's rules. */
static const struct hf_keyword {
	const char	*word;
	enum hf_tok	 tok;
} hf_keywords[] = {
	{ "cpu", HF_CPU }, { "count", HF_COUNT }, { "slots", HF_SLOTS },
	{ "slots-max", HF_SLOTS_MAX }, { "slots_max", HF_SLOTS_MAX },
	{ "max-slots", HF_SLOTS_MAX }, { "max_slots", HF_SLOTS_MAX },
	{ "cpu-max", HF_SLOTS_MAX }, { "cpu_max", HF_SLOTS_MAX },
	{ "max-cpu", HF_SLOTS_MAX }, { "max_cpu", HF_SLOTS_MAX },
	{ "count-max", HF_SLOTS_MAX }, { "count_max", HF_SLOTS_MAX },
	{ "max-count", HF_SLOTS_MAX }, { "max_count", HF_SLOTS_MAX },
	{ "rank", HF_RANK }, { "slot", HF_SLOT }, { "username", HF_USERNAME },
	{ "user-name", HF_USERNAME }, { "user_name", HF_USERNAME },
	{ "port", HF_PORT }, { "boards", HF_BOARDS }, { "sockets", HF_SOCKETS },
	{ "sockets_per_board", HF_SOCKETS }, { "sockets-per-board", HF_SOCKETS },
	{ "cores", HF_CORES }, { "cores_per_socket", HF_CORES },
	{ "cores-per-socket", HF_CORES },
};

/* A hostfile being read, and its last token. */
struct hf {
	const char	*path;
	char		*text;
	size_t		 len, pos;
	int		 line;		/* of pos */
	int		 comment;	/* in a block comment */
	enum hf_tok	 tok;
	const char	*ts;		/* its text */
	size_t		 tlen;
	int		 tline;		/* its line */
	long long	 ival;		/* HF_INT: its value (> INT_MAX: large) */
	char		*nodename;	/* this machine's, for its other names */
	struct alloc	*a;
	char		**cause;
};

/* Whether c is of the scanner's {WHITE}. */
static int
hf_white(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* The length of a match of [A-Za-z0-9][A-Za-z0-9_\-]*"@" at s, or 0. */
static size_t
hf_user_at(const char *s, const char *end, int caret)
{
	const char	*p = s;

	if (caret && p < end && *p == '^')
		p++;
	if (p >= end || !isalnum((unsigned char)*p))
		return 0;
	for (p++; p < end && (isalnum((unsigned char)*p) || *p == '_' ||
	    *p == '-'); p++)
		;
	return p < end && *p == '@' ? (size_t)(p + 1 - s) : 0;
}

/* The length of a match of ([0-9]{1,3}"."){3}[0-9]{1,3} at s, or 0. */
static size_t
hf_ipv4(const char *s, const char *end)
{
	const char	*p = s;
	int		 part, d;

	for (part = 0; part < 4; part++) {
		for (d = 0; d < 3 && p < end && isdigit((unsigned char)*p); d++)
			p++;
		if (d == 0)
			return 0;
		if (part < 3) {
			if (p >= end || *p != '.')
				return 0;
			p++;
		}
	}
	return p - s;
}

/* The length of a match of [A-Za-z0-9][A-Za-z0-9_\-\.]* at s, or 0. */
static size_t
hf_hostname(const char *s, const char *end)
{
	const char	*p = s;

	if (p >= end || !isalnum((unsigned char)*p))
		return 0;
	for (p++; p < end && (isalnum((unsigned char)*p) || *p == '_' ||
	    *p == '-' || *p == '.'); p++)
		;
	return p - s;
}

/* Count the newlines of the token and move past it. */
static void
hf_take(struct hf *hf, size_t n)
{
	size_t	i;

	hf->ts = hf->text + hf->pos;
	hf->tlen = n;
	hf->tline = hf->line;
	for (i = 0; i < n; i++) {
		if (hf->ts[i] == '\n')
			hf->line++;
	}
	hf->pos += n;
}

/* The next token, by the rules of Open MPI's scanner: the longest match,
 * the earliest rule on a tie. */
static enum hf_tok
hf_lex(struct hf *hf)
{
	const char	*s, *end = hf->text + hf->len, *nl;
	size_t		 best, n, k, i;
	enum hf_tok	 tok;
	int		 rule, brule;

again:
	if (hf->pos >= hf->len) {
		hf->ts = end;
		hf->tlen = 0;
		hf->tline = hf->line;
		return hf->tok = HF_DONE;
	}
	s = hf->text + hf->pos;
	if (hf->comment) {
		if (*s == '\n') {
			hf_take(hf, 1);
			return hf->tok = HF_NEWLINE;
		}
		if (*s == '*') {
			for (k = 0; s + k < end && s[k] == '*'; k++)
				;
			if (s + k < end && s[k] == '/') {
				hf->comment = 0;
				hf_take(hf, k + 1);
				return hf->tok = HF_NEWLINE;
			}
			for (; s + k < end && s[k] != '*' && s[k] != '/' &&
			    s[k] != '\n'; k++)
				;
		} else {
			for (k = 0; s + k < end && s[k] != '*' &&
			    s[k] != '\n'; k++)
				;
		}
		hf_take(hf, k);
		goto again;
	}

	nl = memchr(s, '\n', end - s);
	best = 0;
	brule = 0;
	tok = HF_ERROR;
#define HF_RULE(len, t) do {						\
	n = (len);							\
	if (n > best) {							\
		best = n;						\
		tok = (t);						\
		brule = rule;						\
	}								\
	rule++;								\
} while (0)
	rule = 1;
	/* {WHITE}*\n, #.*\n, "//".*\n */
	for (k = 0; s + k < end && hf_white(s[k]); k++)
		;
	HF_RULE(s + k < end && s[k] == '\n' ? k + 1 : 0, HF_NEWLINE);
	HF_RULE(*s == '#' && nl != NULL ? (size_t)(nl + 1 - s) : 0, HF_NEWLINE);
	HF_RULE(end - s >= 2 && s[0] == '/' && s[1] == '/' && nl != NULL ?
	    (size_t)(nl + 1 - s) : 0, HF_NEWLINE);
	/* Slash and star start a block comment: marked below. */
	HF_RULE(end - s >= 2 && s[0] == '/' && s[1] == '*' ? 2 : 0, HF_NEWLINE);
	/* \"[^\"]*\" */
	n = 0;
	if (*s == '"') {
		for (k = 1; s + k < end && s[k] != '"'; k++)
			;
		if (s + k < end)
			n = k + 1;
	}
	HF_RULE(n, HF_QUOTED);
	/* {WHITE}+: skipped, marked below. */
	for (k = 0; s + k < end && hf_white(s[k]); k++)
		;
	HF_RULE(k, HF_ERROR);
	HF_RULE(*s == '=' ? 1 : 0, HF_EQUAL);
	for (i = 0; i < sizeof hf_keywords / sizeof hf_keywords[0]; i++) {
		k = strlen(hf_keywords[i].word);
		HF_RULE((size_t)(end - s) >= k &&
		    memcmp(s, hf_keywords[i].word, k) == 0 ? k : 0,
		    hf_keywords[i].tok);
	}
	/* \+n[0-9]+, \+[eE][\:][0-9]+, \+[eE] */
	n = 0;
	if (*s == '+' && end - s >= 2 && s[1] == 'n') {
		for (k = 2; s + k < end && isdigit((unsigned char)s[k]); k++)
			;
		n = k > 2 ? k : 0;
	}
	HF_RULE(n, HF_RELATIVE);
	n = 0;
	if (*s == '+' && end - s >= 3 && (s[1] == 'e' || s[1] == 'E') &&
	    s[2] == ':') {
		for (k = 3; s + k < end && isdigit((unsigned char)s[k]); k++)
			;
		n = k > 3 ? k : 0;
	}
	HF_RULE(n, HF_RELATIVE);
	HF_RULE(*s == '+' && end - s >= 2 && (s[1] == 'e' || s[1] == 'E') ? 2 :
	    0, HF_RELATIVE);
	/* [0-9]+ */
	for (k = 0; s + k < end && isdigit((unsigned char)s[k]); k++)
		;
	HF_RULE(k, HF_INT);
	/* [A-Za-z0-9_\-,:*@]* */
	for (k = 0; s + k < end && (isalnum((unsigned char)s[k]) ||
	    strchr("_-,:*@", s[k]) != NULL) && s[k] != '\0'; k++)
		;
	HF_RULE(k, HF_STRING);
	/* IPv4, with or without user@ */
	n = hf_ipv4(s, end);
	if ((k = hf_user_at(s, end, 0)) > 0 && hf_ipv4(s + k, end) > 0 &&
	    k + hf_ipv4(s + k, end) > n)
		n = k + hf_ipv4(s + k, end);
	HF_RULE(n, HF_IPV4);
	/* The IPv6 rule matches only what [A-Za-z0-9_\-,:*@]* matches at
	 * least as far, and that rule comes first: it never wins. */
	rule++;
	/* (\^?[A-Za-z0-9][A-Za-z0-9_\-]*"@")?[A-Za-z0-9][A-Za-z0-9_\-\.]* */
	n = hf_hostname(s, end);
	if ((k = hf_user_at(s, end, 1)) > 0 && hf_hostname(s + k, end) > 0 &&
	    k + hf_hostname(s + k, end) > n)
		n = k + hf_hostname(s + k, end);
	HF_RULE(n, HF_HOSTNAME);
	/* . */
	HF_RULE(*s != '\n' ? 1 : 0, HF_ERROR);
#undef HF_RULE

	if (brule == 6) {			/* {WHITE}+ */
		hf_take(hf, best);
		goto again;
	}
	if (brule == 4)				/* a block comment */
		hf->comment = 1;
	hf_take(hf, best);
	if (tok == HF_INT) {
		hf->ival = 0;
		for (k = 0; k < hf->tlen && hf->ival <= INT_MAX; k++)
			hf->ival = hf->ival * 10 + (hf->ts[k] - '0');
	}
	return hf->tok = tok;
}

/* Set *cause to "path:line: " and the message; -1. */
static int __attribute__((format(printf, 3, 4)))
hf_fail(struct hf *hf, int line, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	xasprintf(hf->cause, "%s:%d: %s", hf->path, line, msg);
	free(msg);
	return -1;
}

/* The last token, said for a message: 'text', or what it is. */
static char *
hf_what(const struct hf *hf)
{
	char		*s;
	const char	*p;
	unsigned char	 c;

	switch (hf->tok) {
	case HF_DONE:
		return xstrdup("end of file");
	case HF_NEWLINE:
		return xstrdup("end of line");
	case HF_QUOTED:
		return xstrdup("quoted string");
	case HF_ERROR:
		c = *hf->ts;
		if (c == '\r')
			return xstrdup("carriage return (are the file's lines "
			    "ended the DOS way?)");
		p = hf->ts;
		if ((c == '#' || (c == '/' && p + 1 < hf->text + hf->len &&
		    p[1] == '/')) && memchr(p, '\n', hf->text + hf->len - p) ==
		    NULL)
			return xstrdup("comment without a newline after it "
			    "(Open MPI 4.1 refuses one on a file's last line)");
		if (isprint(c))
			xasprintf(&s, "'%c'", c);
		else
			xasprintf(&s, "byte 0x%02x", c);
		return s;
	default:
		xasprintf(&s, "'%.*s'", (int)hf->tlen, hf->ts);
		return s;
	}
}

/* A token where the grammar has none: Open MPI's parse error. */
static int
hf_unexpected(struct hf *hf)
{
	char	*what;
	int	 line = hf->tline;

	if (hf->tok == HF_SLOT)
		return hf_fail(hf, line, "'slot' is not a word Open MPI 4.1 "
		    "takes here: slots=N is");
	what = hf_what(hf);
	hf_fail(hf, line, "unexpected %s", what);
	free(what);
	return -1;
}

/* Open MPI's hostfile_parse_int: '=' and a number after a keyword; the
 * number, or (the tokens taken all the same) -1 without '=', -2 without a
 * number, -3 for a number past INT_MAX. */
static long long
hf_int(struct hf *hf)
{
	if (hf_lex(hf) != HF_EQUAL)
		return -1;
	if (hf_lex(hf) != HF_INT)
		return -2;
	return hf->ival > INT_MAX ? -3 : hf->ival;
}

/* The keyword kw (at line) whose value hf_int refused with v. */
static int
hf_bad_int(struct hf *hf, const char *kw, int kwlen, int line, long long v)
{
	char	*what;

	if (v == -3)
		return hf_fail(hf, line, "%.*s=%.*s is too large", kwlen, kw,
		    (int)hf->tlen, hf->ts);
	what = hf_what(hf);
	if (v == -1)
		hf_fail(hf, line, "'%.*s' wants '=' and a number, found %s",
		    kwlen, kw, what);
	else
		hf_fail(hf, line, "%.*s= wants a number of 0 or more, found %s",
		    kwlen, kw, what);
	free(what);
	return -1;
}

/* Open MPI's hostfile_parse_line for a line that starts with a host name
 * (the token just read). */
static int
hf_line(struct hf *hf)
{
	struct alloc_host	*h;
	char			*value, *name, *p, *piece[2];
	long long		 v;
	int			 i, cnt, line = hf->tline, kwline, given, max = 0;
	int			 got_max = 0, kwlen;
	const char		*kw;

	if (hf->tok == HF_RELATIVE)
		return hf_fail(hf, line, "'%.*s' names a host of an allocation "
		    "by its place, and there is no allocation", (int)hf->tlen,
		    hf->ts);
	if (hf->tok == HF_RANK)
		return hf_fail(hf, line, "a rankfile line ('rank N=host ...') "
		    "is not read here: list hosts, one a line");
	if (hf->tok == HF_INT) {
		if (hf->ival > INT_MAX)
			return hf_fail(hf, line, "'%.*s' is not a host name",
			    (int)hf->tlen, hf->ts);
		xasprintf(&value, "%lld", hf->ival);
	} else
		value = xstrndup(hf->ts, hf->tlen);

	/* user@host: Open MPI splits at '@', leaving empty pieces out. */
	cnt = 0;
	for (p = value;;) {
		p += strspn(p, "@");
		if (*p == '\0')
			break;
		if (cnt < 2)
			piece[cnt] = p;
		cnt++;
		p += strcspn(p, "@");
		if (*p != '\0')
			*p++ = '\0';
	}
	if (cnt < 1 || cnt > 2) {
		hf_fail(hf, line, "'%.*s' is not a host name (or user@host)",
		    (int)hf->tlen, hf->ts);
		free(value);
		return -1;
	}
	name = piece[cnt - 1];
	name = alloc_short(name);
	free(value);
	if (alloc_is_local(name)) {
		free(name);
		name = xstrdup(hf->nodename);
	}

	/* A host seen before gets a slot more, and its slots are given. */
	if ((i = alloc_index(hf->a, name)) < 0) {
		i = alloc_add(hf->a, name, 1, 1, strcmp(name, hf->nodename) == 0);
		given = 0;
	} else {
		free(name);
		h = &hf->a->hosts[i];
		h->slots++;
		h->cores = 0;
		given = 1;
	}
	h = &hf->a->hosts[i];

	for (;;) {
		switch (hf_lex(hf)) {
		case HF_DONE:
		case HF_NEWLINE:
			goto done;
		case HF_USERNAME:
			/* Open MPI's hostfile_parse_string: '=' and a name,
			 * else nothing, the tokens taken all the same. */
			if (hf_lex(hf) == HF_EQUAL)
				hf_lex(hf);
			break;
		case HF_PORT:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			break;
		case HF_COUNT:
		case HF_CPU:
		case HF_SLOTS:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			if (given)
				return hf_fail(hf, kwline, "the slots of '%s' "
				    "are given twice: list a host once a slot, "
				    "or on one line with slots=N, not both",
				    h->name);
			h->slots = (int)v;
			h->cores = 0;
			given = 1;
			if (max != 0 && max < h->slots)
				max = h->slots;
			break;
		case HF_SLOTS_MAX:
			kw = hf->ts;
			kwlen = (int)hf->tlen;
			kwline = hf->tline;
			if ((v = hf_int(hf)) < 0)
				return hf_bad_int(hf, kw, kwlen, kwline, v);
			if (v < h->slots)
				return hf_fail(hf, kwline, "%.*s=%lld is less "
				    "than the %d slots of '%s'", kwlen, kw, v,
				    h->slots, h->name);
			if (max != v) {
				max = (int)v;
				got_max = 1;
			}
			break;
		case HF_STRING:
		case HF_INT:
			break;		/* Open MPI passes over them */
		default:
			return hf_unexpected(hf);
		}
	}
done:
	if (got_max && !given) {
		h->slots = max;
		h->cores = 0;
	}
	return 0;
}

int
alloc_hostfile(struct alloc *a, const char *path, char **cause)
{
	struct hf	hf;
	int		rc = -1;

	memset(a, 0, sizeof *a);
	memset(&hf, 0, sizeof hf);
	hf.path = path;
	hf.line = 1;
	hf.a = a;
	hf.cause = cause;
	if ((hf.text = alloc_read_file(path, &hf.len)) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	hf.nodename = alloc_nodename();
	a->kind = ALLOC_HOSTFILE;
	xasprintf(&a->what, "the hostfile '%s'", path);

	for (;;) {
		switch (hf_lex(&hf)) {
		case HF_DONE:
			goto done;
		case HF_NEWLINE:
			break;
		case HF_STRING:
		case HF_INT:
		case HF_HOSTNAME:
		case HF_IPV4:
		case HF_IPV6:
		case HF_RELATIVE:
		case HF_RANK:
			if (hf_line(&hf) != 0)
				goto out;
			break;
		default:
			hf_unexpected(&hf);
			goto out;
		}
	}
done:
	if (a->nhosts == 0) {
		xasprintf(cause, "'%s' names no host", path);
		goto out;
	}
	alloc_total(a);
	rc = 0;
out:
	free(hf.text);
	free(hf.nodename);
	if (rc != 0)
		alloc_clear(a);
	return rc;
}
