/* readstdin.c -- a component for tests/stdin.test that reads its standard
 * input to the end and writes what it read to the file named by its first
 * argument (in its working directory), then says on stdout how many bytes
 * that was ("NAME: N bytes"), its second argument naming it.  It has no
 * ports. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	char	 chunk[4096];
	size_t	 n, total = 0;
	FILE	*f;

	ens_init(&argc, &argv);
	if (argc < 3 || (f = fopen(argv[1], "wb")) == NULL) {
		perror("readstdin");
		return 1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		fwrite(chunk, 1, n, f);
		total += n;
	}
	if (ferror(stdin) || fclose(f) != 0) {
		perror("readstdin");
		return 1;
	}
	printf("%s: %zu bytes\n", argv[2], total);
	ens_finalize();
	return 0;
}
