! native-f90.F90 -- bench/native.c in Fortran (mpi_f08): the same MPI
! program under a plain mpirun and under 'ensemble run' (bench/native.sh),
! built twice from this source through the preprocessor, as
! bench/native-f90 (MPI_Init and MPI_Finalize, plain mpi_f08) and, with
! -DENSEMBLE, as bench/native-f90-ens (the module ensemble's ens_init and
! ens_finalize; bench/native.pcg with -D prog=native-f90-ens).  As
! native.c: on MPI_COMM_WORLD, pingpong8 and pingpong1M (ranks 0 and 1,
! half a round trip) and allreduce8 (every rank, one double), each the
! median of BLOCKS blocks of SMALL or LARGE operations after one to warm
! up, a barrier before each; rank 0 prints one line per figure.
!
!     native-f90 [SMALL [LARGE [SECONDS]]]    (default 20000 200 0)
!
! With SECONDS above 0 it only bounces 8 bytes between ranks 0 and 1 for
! that long, and rank 0 prints the round trips.
program native
    use mpi_f08
#ifdef ENSEMBLE
    use ensemble
#endif
    implicit none
    integer, parameter :: BLOCKS = 7, LARGE_BYTES = 1048576, CHUNK = 1000
    integer, parameter :: PINGPONG = 1, ALLREDUCE = 2
    character(len=1), allocatable :: buf(:)
    character(len=32) :: arg
    integer :: small, large, rank, size, st
    integer(8) :: n
    real(8) :: seconds, p8, a8, p1
    logical :: ok

#ifdef ENSEMBLE
    call ens_init()
#else
    call MPI_Init()
#endif
    small = 20000
    large = 200
    seconds = 0
    ok = command_argument_count() <= 3
    if (ok .and. command_argument_count() >= 1) then
        call get_command_argument(1, arg)
        read (arg, *, iostat=st) small
        ok = st == 0
    end if
    if (ok .and. command_argument_count() >= 2) then
        call get_command_argument(2, arg)
        read (arg, *, iostat=st) large
        ok = st == 0
    end if
    if (ok .and. command_argument_count() >= 3) then
        call get_command_argument(3, arg)
        read (arg, *, iostat=st) seconds
        ok = st == 0
    end if
    if (.not. ok .or. small < 1 .or. large < 1 .or. seconds < 0) then
        write (0, '(a)') "usage: native-f90 [SMALL [LARGE [SECONDS]]]"
        error stop 2
    end if
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    if (size < 2) then
        write (0, '(a)') "native-f90: needs at least 2 processes"
        error stop 2
    end if
    allocate(buf(LARGE_BYTES))
    buf = char(0)

    if (seconds > 0) then
        n = spin(seconds)
        if (rank == 0) write (*, '(a,a,a,i0)') "pingpong8 round trips in ", &
            fixed(seconds), " s: ", n
    else
        p8 = median(PINGPONG, 8, small)
        a8 = median(ALLREDUCE, 8, small)
        p1 = median(PINGPONG, LARGE_BYTES, large)
        if (rank == 0) then
            write (*, '(a,a,a)') "pingpong8 ", fixed(p8), " us"
            write (*, '(a,a,a)') "allreduce8 ", fixed(a8), " us"
            write (*, '(a,a,a)') "pingpong1M ", fixed(p1), " us"
        end if
    end if
    flush (6)
    call check_barrier()
    deallocate(buf)
#ifdef ENSEMBLE
    call ens_finalize()
#else
    call MPI_Finalize()
#endif

contains

    ! Stop on an MPI error (ens_init makes MPI_COMM_WORLD return them).
    subroutine check(ierr, call)
        integer, intent(in) :: ierr
        character(len=*), intent(in) :: call

        if (ierr /= MPI_SUCCESS) then
            write (0, '(a,a,a)') "native-f90: ", call, " failed"
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
    end subroutine check

    ! A barrier of every rank.
    subroutine check_barrier()
        integer :: ierr

        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        call check(ierr, "MPI_Barrier")
    end subroutine check_barrier

    ! One round trip of 'bytes' bytes between ranks 0 and 1, rank 0 first.
    subroutine trip(bytes)
        integer, intent(in) :: bytes
        integer :: peer, ierr

        peer = 1 - rank
        if (rank == 0) then
            call MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, ierr)
            call check(ierr, "MPI_Send")
        end if
        call MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &
            MPI_STATUS_IGNORE, ierr)
        call check(ierr, "MPI_Recv")
        if (rank == 1) then
            call MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, ierr)
            call check(ierr, "MPI_Send")
        end if
    end subroutine trip

    ! Do k operations; returns the seconds they took (ranks above 1 take
    ! no part in a ping-pong).
    real(8) function block(op, bytes, k)
        integer, intent(in) :: op, bytes, k
        real(8) :: t0, x, y
        integer :: i, ierr

        x = 1
        t0 = MPI_Wtime()
        if (op == ALLREDUCE) then
            do i = 1, k
                call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                    MPI_COMM_WORLD, ierr)
                call check(ierr, "MPI_Allreduce")
            end do
        else if (rank <= 1) then
            do i = 1, k
                call trip(bytes)
            end do
        end if
        block = MPI_Wtime() - t0
    end function block

    ! The median of BLOCKS timed blocks of k operations, after one to warm
    ! up, in microseconds per operation (per half round trip).
    real(8) function median(op, bytes, k)
        integer, intent(in) :: op, bytes, k
        real(8) :: t(BLOCKS), x
        integer :: b, i, j

        do b = 0, BLOCKS
            call check_barrier()
            x = block(op, bytes, k)
            if (b >= 1) t(b) = x
        end do
        do i = 2, BLOCKS
            x = t(i)
            j = i - 1
            do while (j >= 1)
                if (t(j) <= x) exit
                t(j + 1) = t(j)
                j = j - 1
            end do
            t(j + 1) = x
        end do
        median = t(BLOCKS / 2 + 1) / k * 1d6
        if (op == PINGPONG) median = median / 2
    end function median

    ! x with three decimals, as C's "%.3f" (f0.3 drops the leading zero).
    function fixed(x)
        real(8), intent(in) :: x
        character(len=:), allocatable :: fixed
        character(len=32) :: s

        write (s, '(f32.3)') x
        fixed = trim(adjustl(s))
    end function fixed

    ! Bounce 8 bytes between ranks 0 and 1 for about 'secs' seconds: rank
    ! 0 looks at the clock every CHUNK round trips and, once the time is
    ! up, marks its next message as the last.  Returns the round trips.
    integer(8) function spin(secs)
        real(8), intent(in) :: secs
        real(8) :: deadline

        deadline = MPI_Wtime() + secs
        spin = 0
        buf(1) = char(0)
        if (rank > 1) return
        do
            if (rank == 0 .and. mod(spin, int(CHUNK, 8)) == 0) then
                if (MPI_Wtime() >= deadline) buf(1) = char(1)
            end if
            call trip(8)
            spin = spin + 1
            if (buf(1) /= char(0)) exit
        end do
    end function spin

end program native
