/* auth.h -- the handshake of a '--stdin all' connection (fan.c's side
 * and the trampoline's, trampoline/tramp.c), in runtime/wire.h's words: each side
 * proves that it knows the run's stdin key, which never travels, so that
 * neither a process that is not the run's 'ensemble run' (a port another
 * user took first) learns anything from a trampoline, nor one that is not
 * a trampoline of the run takes a process's input.  libc only.
 *
 * The trampoline proves itself in its first message, so that 'ensemble
 * run' judges a connection at its first read (a stranger's garbage is
 * closed at once, and a trampoline's connection never waits among
 * strangers for a second round trip):
 *
 *	trampoline -> run	NONCE ID PROOF(client) '\n'
 *	run -> trampoline	PROOF(server) '\n'	(then the run's input)
 *
 * NONCE is the trampoline's, fresh for each connection; ID names its
 * process (an HMAC of its name under the key: fixed in length, and
 * telling a listener nothing of the name); each PROOF is an HMAC-SHA-256
 * under the key of the protocol's name, whose proof it is (client or
 * server), NONCE, ID and the connection's two ends (address and port) as
 * each side sees them.  Why a message taken off the network is of no use
 * to another: the key is the run's own, drawn afresh for each run, so a
 * message of another run proves nothing in this one; the two ends bind a
 * proof to its connection, so one sent from any other address or port,
 * or relayed through a third party, does not match, and while the
 * trampoline's connection is open no other can have its ends; and 'ensemble
 * run' takes each ID once in a run, so one replayed from the same ends
 * after that connection closed (another user of the trampoline's host
 * taking its port) finds its process taken (were that connection dropped
 * unread, the replay would need what only root, or a party on the path
 * who could take over any connection, has: the trampoline's traffic to
 * read and its port).  The server's proof binds
 * the trampoline's fresh NONCE, so no earlier answer passes for it, and
 * only a side that knows the key can make either proof; each side's proof
 * names its side, so neither can be sent back as the other's.  'ensemble
 * run' answers only a connection it has taken: its proof is the
 * acceptance. */
#ifndef ENS_AUTH_H
#define ENS_AUTH_H

#include <netinet/in.h>
#include <stddef.h>

#define AUTH_KEY	32	/* hex digits of a secret or key: 16 bytes */
#define AUTH_NONCE	32	/* hex digits of a nonce */
#define AUTH_ID		64	/* hex digits of a process's ID */
#define AUTH_PROOF	64	/* hex digits of a proof: HMAC-SHA-256 */

/* The two messages, each ending in a newline. */
#define AUTH_HELLO_LEN		(AUTH_NONCE + AUTH_ID + AUTH_PROOF + 1)
#define AUTH_ANSWER_LEN		(AUTH_PROOF + 1)

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
 * string), with the trampoline's nonce cn (AUTH_NONCE hex digits) and its
 * process's ID id (AUTH_ID). */
void	auth_proof(char *out, enum auth_side side, const char *key,
	    const char *cn, const char *id, const struct sockaddr_in *client,
	    const struct sockaddr_in *server);

/* The ID of the process called name (AUTH_ID hex digits and a NUL into
 * out), under key. */
void	auth_id(char *out, const char *key, const char *name);

/* The trampoline's first message (AUTH_HELLO_LEN bytes, no NUL, into
 * out) for the process called name, on the connection from client to
 * server: a fresh nonce (also into cn, AUTH_NONCE hex digits and a NUL)
 * and its ID (into id, AUTH_ID and a NUL), then its proof. */
void	auth_hello(char *out, char *cn, char *id, const char *key,
	    const char *name, const struct sockaddr_in *client,
	    const struct sockaddr_in *server);

/* Whether msg (AUTH_HELLO_LEN bytes) is a trampoline's first message
 * under key on the connection from client to server: 0, its nonce into
 * cn and its ID into id (AUTH_NONCE and AUTH_ID hex digits, each with a
 * NUL); -1 when it is not. */
int	auth_hello_check(const char *msg, const char *key,
	    const struct sockaddr_in *client, const struct sockaddr_in *server,
	    char *cn, char *id);

/* 'ensemble run's answer (AUTH_ANSWER_LEN bytes, no NUL, into out) to
 * the first message whose nonce and ID are cn and id. */
void	auth_answer(char *out, const char *key, const char *cn,
	    const char *id, const struct sockaddr_in *client,
	    const struct sockaddr_in *server);

/* Whether msg (AUTH_ANSWER_LEN bytes) is 'ensemble run's answer to our
 * first message (cn, id): 1 or 0. */
int	auth_answer_check(const char *msg, const char *key, const char *cn,
	    const char *id, const struct sockaddr_in *client,
	    const struct sockaddr_in *server);

/* Whether the n bytes of a and b are the same, in time that does not
 * depend on where they differ. */
int	auth_same(const char *a, const char *b, size_t n);

/* Whether the n bytes of s are lower-case hex digits. */
int	auth_is_hex(const char *s, size_t n);

#endif
