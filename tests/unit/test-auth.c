/* test-auth.c -- the proofs of a '--stdin all' handshake (loader/auth.c):
 * HMAC-SHA-256 against RFC 4231's test cases, and a proof that holds for
 * its side, key, nonces and connection alone.  Prints TAP. */
#include "config.h"

#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "auth.h"

static int	n;

static void
check(int ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, what);
}

/* RFC 4231, section 4: key, data, HMAC-SHA-256. */
static void
check_hmac(const char *what, const void *key, size_t kn, const void *msg,
    size_t mn, const char *want)
{
	char	out[AUTH_PROOF + 1];

	auth_hmac(out, key, kn, msg, mn);
	check(strcmp(out, want) == 0, what);
	if (strcmp(out, want) != 0)
		printf("# got  %s\n# want %s\n", out, want);
}

/* An IPv4 end. */
static struct sockaddr_in
end(const char *a, int port)
{
	struct sockaddr_in	sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	inet_pton(AF_INET, a, &sin.sin_addr);
	sin.sin_port = htons((uint16_t)port);
	return sin;
}

/* A trampoline's first message and the answer to it, each judged right
 * where it was made and wrong anywhere else. */
static void
check_hello(const char *key)
{
	struct sockaddr_in	 c = end("10.0.0.2", 40000), s = end("10.0.0.1", 5000);
	struct sockaddr_in	 c2 = end("10.0.0.2", 40001), c3 = end("10.0.0.3", 40000);
	struct sockaddr_in	 s2 = end("10.0.0.1", 5001);
	const char		*key2 = "0123456789abcdef0123456789abcdee";
	char			 h[AUTH_HELLO_LEN], h2[AUTH_HELLO_LEN];
	char			 bad[AUTH_HELLO_LEN], a[AUTH_ANSWER_LEN];
	char			 cn[AUTH_NONCE + 1], id[AUTH_ID + 1];
	char			 gcn[AUTH_NONCE + 1], gid[AUTH_ID + 1];
	char			 cn2[AUTH_NONCE + 1], id2[AUTH_ID + 1];
	char			 x[AUTH_ID + 1], y[AUTH_ID + 1];
	size_t			 k;
	int			 flips = 0;

	auth_id(x, key, "readstdin[1]");
	auth_id(y, key, "readstdin[1]");
	check(strlen(x) == AUTH_ID && auth_is_hex(x, AUTH_ID) &&
	    strcmp(x, y) == 0, "an ID: 64 hex digits, the same for one name");
	auth_id(y, key, "readstdin[2]");
	check(strcmp(x, y) != 0, "an ID: another name's differs");
	auth_id(y, key2, "readstdin[1]");
	check(strcmp(x, y) != 0, "an ID: another key's differs");

	auth_hello(h, cn, id, key, "readstdin[1]", &c, &s);
	check(h[AUTH_HELLO_LEN - 1] == '\n' &&
	    auth_is_hex(h, AUTH_HELLO_LEN - 1) && strcmp(id, x) == 0 &&
	    memcmp(h, cn, AUTH_NONCE) == 0 &&
	    memcmp(h + AUTH_NONCE, id, AUTH_ID) == 0,
	    "a first message: its nonce, its process's ID, a proof, a newline");
	check(auth_hello_check(h, key, &c, &s, gcn, gid) == 0 &&
	    strcmp(gcn, cn) == 0 && strcmp(gid, id) == 0,
	    "a first message: right on its connection, nonce and ID read");
	auth_hello(h2, cn2, id2, key, "readstdin[1]", &c, &s);
	check(strcmp(cn, cn2) != 0 && memcmp(h, h2, AUTH_HELLO_LEN) != 0,
	    "a first message: a fresh nonce each time");
	check(auth_hello_check(h, key, &c2, &s, gcn, gid) != 0 &&
	    auth_hello_check(h, key, &c3, &s, gcn, gid) != 0 &&
	    auth_hello_check(h, key, &c, &s2, gcn, gid) != 0,
	    "a first message: wrong from another port or address, or to another port");
	check(auth_hello_check(h, key2, &c, &s, gcn, gid) != 0,
	    "a first message: wrong under another key");
	for (k = 0; k < AUTH_HELLO_LEN - 1; k++) {
		memcpy(bad, h, sizeof(bad));
		bad[k] = bad[k] == '0' ? '1' : '0';
		flips += auth_hello_check(bad, key, &c, &s, gcn, gid) != 0;
	}
	check(flips == AUTH_HELLO_LEN - 1,
	    "a first message: wrong with any one digit changed (nonce, ID, proof)");
	memcpy(bad, h, sizeof(bad));
	bad[AUTH_HELLO_LEN - 1] = 'a';
	check(auth_hello_check(bad, key, &c, &s, gcn, gid) != 0,
	    "a first message: wrong without its newline");
	memcpy(bad, h, sizeof(bad));
	for (k = 0; k < AUTH_HELLO_LEN - 1; k++)
		if (bad[k] >= 'a' && bad[k] <= 'f')
			bad[k] = (char)(bad[k] - 'a' + 'A');
	check(auth_hello_check(bad, key, &c, &s, gcn, gid) != 0,
	    "a first message: wrong in upper-case digits");

	auth_answer(a, key, cn, id, &c, &s);
	check(a[AUTH_ANSWER_LEN - 1] == '\n' &&
	    auth_is_hex(a, AUTH_ANSWER_LEN - 1) &&
	    auth_answer_check(a, key, cn, id, &c, &s),
	    "an answer: 64 hex digits and a newline, right for its first message");
	check(!auth_answer_check(a, key, cn2, id, &c, &s) &&
	    !auth_answer_check(a, key, cn, y, &c, &s),
	    "an answer: wrong for another nonce or process");
	check(!auth_answer_check(a, key, cn, id, &c2, &s) &&
	    !auth_answer_check(a, key, cn, id, &c, &s2) &&
	    !auth_answer_check(a, key2, cn, id, &c, &s),
	    "an answer: wrong on another connection or under another key");
	memcpy(a, h + AUTH_NONCE + AUTH_ID, AUTH_PROOF);
	a[AUTH_PROOF] = '\n';
	check(!auth_answer_check(a, key, cn, id, &c, &s),
	    "an answer: the trampoline's own proof sent back is wrong");
}

int
main(void)
{
	unsigned char		 k[131], d[50];
	char			 p[6][AUTH_PROOF + 1], hex[AUTH_NONCE + 1];
	char			 hex2[AUTH_PROOF + 1];
	const char		*key = "0123456789abcdef0123456789abcdef";
	const char		*cn = "00112233445566778899aabbccddeeff";
	const char		*cn2 = "ffeeddccbbaa99887766554433221100";
	const char		*id = "00112233445566778899aabbccddeeff"
				    "00112233445566778899aabbccddeeff";
	const char		*id2 = "00112233445566778899aabbccddeeff"
				    "00112233445566778899aabbccddeef0";
	struct sockaddr_in	 c = end("10.0.0.2", 40000), s = end("10.0.0.1", 5000);
	struct sockaddr_in	 c2 = end("10.0.0.2", 40001);

	memset(k, 0x0b, 20);
	check_hmac("RFC 4231 case 1", k, 20, "Hi There", 8,
	    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	check_hmac("RFC 4231 case 2", "Jefe", 4, "what do ya want for nothing?", 28,
	    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(k, 0xaa, 20);
	memset(d, 0xdd, 50);
	check_hmac("RFC 4231 case 3", k, 20, d, 50,
	    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	memset(k, 0xaa, 131);
	check_hmac("RFC 4231 case 6: a key longer than a block", k, 131,
	    "Test Using Larger Than Block-Size Key - Hash Key First", 54,
	    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	check_hmac("RFC 4231 case 7: data longer than a block", k, 131,
	    "This is a test using a larger than block-size key and a larger than"
	    " block-size data. The key needs to be hashed before being used by"
	    " the HMAC algorithm.", 152,
	    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");

	auth_proof(p[0], AUTH_SERVER, key, cn, id, &c, &s);
	auth_proof(p[1], AUTH_SERVER, key, cn, id, &c, &s);
	auth_proof(p[2], AUTH_CLIENT, key, cn, id, &c, &s);
	auth_proof(p[3], AUTH_SERVER, "0123456789abcdef0123456789abcdee", cn, id,
	    &c, &s);
	auth_proof(p[4], AUTH_SERVER, key, cn2, id, &c, &s);
	auth_proof(p[5], AUTH_SERVER, key, cn, id, &c2, &s);
	check(strlen(p[0]) == AUTH_PROOF && auth_is_hex(p[0], AUTH_PROOF),
	    "a proof: 64 hex digits");
	check(strcmp(p[0], p[1]) == 0, "a proof: the same for the same inputs");
	check(strcmp(p[0], p[2]) != 0, "a proof: each side's its own");
	check(strcmp(p[0], p[3]) != 0, "a proof: another key's differs");
	check(strcmp(p[0], p[4]) != 0, "a proof: another nonce's differs");
	check(strcmp(p[0], p[5]) != 0, "a proof: another connection's differs");
	auth_proof(hex2, AUTH_SERVER, key, cn, id2, &c, &s);
	check(strcmp(p[0], hex2) != 0, "a proof: another process's differs");
	check_hello(key);
	check(auth_same(p[0], p[1], AUTH_PROOF) && !auth_same(p[0], p[2], AUTH_PROOF),
	    "auth_same");
	check(!auth_is_hex("00ff0G", 6) && !auth_is_hex("00FF", 4) &&
	    auth_is_hex("09af", 4), "auth_is_hex: lower-case hex digits only");
	auth_random_hex(hex, AUTH_NONCE / 2);
	check(strlen(hex) == AUTH_NONCE && auth_is_hex(hex, AUTH_NONCE),
	    "a nonce: 32 hex digits");
	printf("1..%d\n", n);
	return 0;
}
