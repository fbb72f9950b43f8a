/* auth.h -- the handshake of a '--stdin all' connection (fan.c's side
 * and the trampoline's, trampoline/tramp.c), in runtime/wire.h's words: each side
 * proves that it knows the run's stdin key, which never travels, so that
 * neither a process that is not the run's 'ensemble run' (a port another
 * user took first) learns anything from a trampoline, nor one that is not
 * a trampoline of the run takes a process's input.  A proof is an
 * HMAC-SHA-256 under the key of both sides' nonces and the connection's
 * two ends as each side sees them, so that it holds for that connection
 * alone (one relayed through a third party does not match).  libc only. */
#ifndef ENS_AUTH_H
#define ENS_AUTH_H

#include <netinet/in.h>
#include <stddef.h>

#define AUTH_KEY	32	/* hex digits of a secret or key: 16 bytes */
#define AUTH_NONCE	32	/* hex digits of a nonce */
#define AUTH_PROOF	64	/* hex digits of a proof: HMAC-SHA-256 */

/* What each side sends, in order, each ending in a newline: the
 * trampoline its nonce; 'ensemble run' its nonce and its proof; the
 * trampoline its proof; 'ensemble run' AUTH_ACCEPT, once it has taken it
 * (then the run's standard input follows). */
#define AUTH_HELLO_LEN		(AUTH_NONCE + 1)
#define AUTH_CHALLENGE_LEN	(AUTH_NONCE + AUTH_PROOF + 1)
#define AUTH_ANSWER_LEN		(AUTH_PROOF + 1)
#define AUTH_ACCEPT		'\n'

/* Whose proof: the side that makes it. */
enum auth_side {
	AUTH_SERVER,		/* 'ensemble run' */
	AUTH_CLIENT,		/* the trampoline */
};

/* Write n random bytes as 2n lower-case hex digits and a NUL into out
 * (from the clock and the process when the kernel has no randomness to
 * give). */
void	auth_random_hex(char *out, size_t n);

/* HMAC-SHA-256 of the n bytes of msg under the key (kn bytes), as
 * AUTH_PROOF hex digits and a NUL into out. */
void	auth_hmac(char *out, const void *key, size_t kn, const void *msg,
	    size_t n);

/* The proof side makes (AUTH_PROOF hex digits and a NUL into out) for
 * the connection from client to server, under key (a NUL-terminated
 * string), with the nonces cn and sn (AUTH_NONCE hex digits each). */
void	auth_proof(char *out, enum auth_side side, const char *key,
	    const char *cn, const char *sn, const struct sockaddr_in *client,
	    const struct sockaddr_in *server);

/* Whether the n bytes of a and b are the same, in time that does not
 * depend on where they differ. */
int	auth_same(const char *a, const char *b, size_t n);

/* Whether the n bytes of s are lower-case hex digits. */
int	auth_is_hex(const char *s, size_t n);

#endif
