/* exchange.h -- what elsewhere.c calls. */
void	exchange(int);
