/* auth.c -- the messages of a '--stdin all' connection's handshake
 * and their proofs (auth.h): SHA-256 (FIPS 180-4) and HMAC (RFC 2104) over it, written
 * here since ensemble links libc alone. */
#include "config.h"

#include <sys/random.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"

#define SHA256_BLOCK	64
#define SHA256_LEN	32

/* The protocol's name and version, the first word each HMAC hashes. */
#define AUTH_PROTOCOL	"ensemble-stdin/2"

struct sha256 {
	uint32_t	h[8];
	uint64_t	len;		/* bytes hashed */
	unsigned char	buf[SHA256_BLOCK];
	size_t		nbuf;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

/* Hash one block into s. */
static void
sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t	w[64], a, b, c, d, e, f, g, h, t1, t2;
	int		i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10)) +
		    w[i - 7] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
		    (w[i - 15] >> 3)) + w[i - 16];
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		    ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		    ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

/* Start a hash. */
static void
sha256_init(struct sha256 *s)
{
	static const uint32_t	h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				    0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
				    0x5be0cd19 };

	memset(s, 0, sizeof(*s));
	memcpy(s->h, h0, sizeof(h0));
}

/* Hash n more bytes of p. */
static void
sha256_add(struct sha256 *s, const void *p, size_t n)
{
	const unsigned char	*u = p;
	size_t			 k;

	s->len += n;
	while (n > 0) {
		k = SHA256_BLOCK - s->nbuf < n ? SHA256_BLOCK - s->nbuf : n;
		memcpy(s->buf + s->nbuf, u, k);
		s->nbuf += k;
		u += k;
		n -= k;
		if (s->nbuf == SHA256_BLOCK) {
			sha256_block(s, s->buf);
			s->nbuf = 0;
		}
	}
}

/* The digest of what was hashed. */
static void
sha256_end(struct sha256 *s, unsigned char out[SHA256_LEN])
{
	uint64_t	bits = s->len * 8;
	unsigned char	pad = 0x80, zero = 0, len[8];
	int		i;

	sha256_add(s, &pad, 1);
	while (s->nbuf != SHA256_BLOCK - 8)
		sha256_add(s, &zero, 1);
	for (i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_add(s, len, 8);
	for (i = 0; i < 32; i++)
		out[i] = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

/* One of HMAC's two hashes: of the key (a block) xor'ed with each byte
 * pad, then the n bytes of msg. */
static void
auth_hmac_pass(const unsigned char *k, unsigned char pad, const void *msg,
    size_t n, unsigned char out[SHA256_LEN])
{
	struct sha256	s;
	unsigned char	b[SHA256_BLOCK];
	int		i;

	for (i = 0; i < SHA256_BLOCK; i++)
		b[i] = k[i] ^ pad;
	sha256_init(&s);
	sha256_add(&s, b, sizeof(b));
	sha256_add(&s, msg, n);
	sha256_end(&s, out);
}

/* HMAC-SHA-256 of the n bytes of msg under the key (kn bytes). */
static void
auth_hmac_raw(const void *key, size_t kn, const void *msg, size_t n,
    unsigned char out[SHA256_LEN])
{
	struct sha256	s;
	unsigned char	k[SHA256_BLOCK], inner[SHA256_LEN];

	memset(k, 0, sizeof(k));
	if (kn > SHA256_BLOCK) {
		sha256_init(&s);
		sha256_add(&s, key, kn);
		sha256_end(&s, k);
	} else
		memcpy(k, key, kn);
	auth_hmac_pass(k, 0x36, msg, n, inner);
	auth_hmac_pass(k, 0x5c, inner, sizeof(inner), out);
}

/* The n bytes of b as hex digits, a NUL after them. */
static void
auth_hex(char *out, const unsigned char *b, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

void
auth_hmac(char *out, const void *key, size_t kn, const void *msg, size_t n)
{
	unsigned char	mac[SHA256_LEN];

	auth_hmac_raw(key, kn, msg, n, mac);
	auth_hex(out, mac, sizeof(mac));
}

void
auth_random_hex(char *out, size_t n)
{
	unsigned char	b[64];
	struct timespec	ts;
	pid_t		pid = getpid();
	size_t		i;

	if (n > sizeof(b))
		n = sizeof(b);
	if (getrandom(b, n, GRND_NONBLOCK) != (ssize_t)n) {
		clock_gettime(CLOCK_REALTIME, &ts);
		for (i = 0; i < n; i++)
			b[i] = (unsigned char)(((uint64_t)ts.tv_nsec >> (i % 4 * 8)) ^
			    ((uint64_t)ts.tv_sec >> (i % 8)) ^
			    ((unsigned)pid >> (i % 3 * 8)) ^ (i * 131));
	}
	auth_hex(out, b, n);
}

void
auth_proof(char *out, enum auth_side side, const char *key, const char *cn,
    const char *id, const struct sockaddr_in *client,
    const struct sockaddr_in *server)
{
	char		msg[320], ca[INET_ADDRSTRLEN], sa[INET_ADDRSTRLEN];
	int		n;

	if (inet_ntop(AF_INET, &client->sin_addr, ca, sizeof(ca)) == NULL)
		strcpy(ca, "?");
	if (inet_ntop(AF_INET, &server->sin_addr, sa, sizeof(sa)) == NULL)
		strcpy(sa, "?");
	n = snprintf(msg, sizeof(msg), AUTH_PROTOCOL " %s %.*s %.*s %s:%u>%s:%u",
	    side == AUTH_SERVER ? "server" : "client", AUTH_NONCE, cn,
	    AUTH_ID, id, ca, ntohs(client->sin_port), sa,
	    ntohs(server->sin_port));
	auth_hmac(out, key, strlen(key), msg, (size_t)n);
}

void
auth_id(char *out, const char *key, const char *name)
{
	struct sha256	s;
	unsigned char	h[SHA256_LEN];
	char		msg[sizeof(AUTH_PROTOCOL " process ") + 2 * SHA256_LEN];
	int		n;

	/* The name's hash in its place: a message of one length. */
	sha256_init(&s);
	sha256_add(&s, name, strlen(name));
	sha256_end(&s, h);
	n = snprintf(msg, sizeof(msg), AUTH_PROTOCOL " process ");
	auth_hex(msg + n, h, sizeof(h));
	auth_hmac(out, key, strlen(key), msg, strlen(msg));
}

void
auth_hello(char *out, char *cn, char *id, const char *key, const char *name,
    const struct sockaddr_in *client, const struct sockaddr_in *server)
{
	char	proof[AUTH_PROOF + 1];

	auth_random_hex(cn, AUTH_NONCE / 2);
	auth_id(id, key, name);
	auth_proof(proof, AUTH_CLIENT, key, cn, id, client, server);
	memcpy(out, cn, AUTH_NONCE);
	memcpy(out + AUTH_NONCE, id, AUTH_ID);
	memcpy(out + AUTH_NONCE + AUTH_ID, proof, AUTH_PROOF);
	out[AUTH_HELLO_LEN - 1] = '\n';
}

int
auth_hello_check(const char *msg, const char *key,
    const struct sockaddr_in *client, const struct sockaddr_in *server,
    char *cn, char *id)
{
	char	want[AUTH_PROOF + 1];

	if (msg[AUTH_HELLO_LEN - 1] != '\n' ||
	    !auth_is_hex(msg, AUTH_HELLO_LEN - 1))
		return -1;
	memcpy(cn, msg, AUTH_NONCE);
	cn[AUTH_NONCE] = '\0';
	memcpy(id, msg + AUTH_NONCE, AUTH_ID);
	id[AUTH_ID] = '\0';
	auth_proof(want, AUTH_CLIENT, key, cn, id, client, server);
	return auth_same(msg + AUTH_NONCE + AUTH_ID, want, AUTH_PROOF) ? 0 : -1;
}

void
auth_answer(char *out, const char *key, const char *cn, const char *id,
    const struct sockaddr_in *client, const struct sockaddr_in *server)
{
	char	proof[AUTH_PROOF + 1];

	auth_proof(proof, AUTH_SERVER, key, cn, id, client, server);
	memcpy(out, proof, AUTH_PROOF);
	out[AUTH_ANSWER_LEN - 1] = '\n';
}

int
auth_answer_check(const char *msg, const char *key, const char *cn,
    const char *id, const struct sockaddr_in *client,
    const struct sockaddr_in *server)
{
	char	want[AUTH_ANSWER_LEN];

	auth_answer(want, key, cn, id, client, server);
	return auth_same(msg, want, AUTH_ANSWER_LEN);
}

int
auth_same(const char *a, const char *b, size_t n)
{
	unsigned char	d = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

int
auth_is_hex(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}
