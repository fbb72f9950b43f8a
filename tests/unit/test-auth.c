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

int
main(void)
{
	unsigned char		 k[131], d[50];
	char			 p[6][AUTH_PROOF + 1], hex[AUTH_NONCE + 1];
	const char		*key = "0123456789abcdef0123456789abcdef";
	const char		*cn = "00112233445566778899aabbccddeeff";
	const char		*sn = "ffeeddccbbaa99887766554433221100";
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

	auth_proof(p[0], AUTH_SERVER, key, cn, sn, &c, &s);
	auth_proof(p[1], AUTH_SERVER, key, cn, sn, &c, &s);
	auth_proof(p[2], AUTH_CLIENT, key, cn, sn, &c, &s);
	auth_proof(p[3], AUTH_SERVER, "0123456789abcdef0123456789abcdee", cn, sn,
	    &c, &s);
	auth_proof(p[4], AUTH_SERVER, key, sn, cn, &c, &s);
	auth_proof(p[5], AUTH_SERVER, key, cn, sn, &c2, &s);
	check(strlen(p[0]) == AUTH_PROOF && auth_is_hex(p[0], AUTH_PROOF),
	    "a proof: 64 hex digits");
	check(strcmp(p[0], p[1]) == 0, "a proof: the same for the same inputs");
	check(strcmp(p[0], p[2]) != 0, "a proof: each side's its own");
	check(strcmp(p[0], p[3]) != 0, "a proof: another key's differs");
	check(strcmp(p[0], p[4]) != 0, "a proof: the nonces in their places");
	check(strcmp(p[0], p[5]) != 0, "a proof: another connection's differs");
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
