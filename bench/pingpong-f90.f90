! pingpong-f90.f90 -- the cost of a port through the Fortran binding:
! ping-pong latency between two processes through the module's
! ens_send/ens_recv against raw mpi_f08 MPI_Send/MPI_Recv on the same port
! (ens_port), in the same run (bench/run.sh, bench/pingpong.pcg with
! exec "pingpong-f90").  As bench/pingpong.c: after WARMUP round trips,
! the module and raw MPI alternate in BLOCKS blocks of reps / BLOCKS round
! trips; process 1 prints the median block of each as half a round trip
! in microseconds.
program pingpong
    use mpi_f08
    use ensemble
    implicit none
    integer, parameter :: WARMUP = 1000, BLOCKS = 5
    character(len=1), allocatable :: buf(:)
    real(8) :: tens(BLOCKS), tmpi(BLOCKS)
    type(ens_self_t) :: me
    type(ens_port_t) :: p
    character(len=32) :: arg
    integer :: bytes, reps, n, b, st1, st2
    logical :: first
    real(8) :: dummy

    call ens_init()
    bytes = -1
    reps = 0
    if (command_argument_count() == 2) then
        call get_command_argument(1, arg)
        read (arg, *, iostat=st1) bytes
        call get_command_argument(2, arg)
        read (arg, *, iostat=st2) reps
        if (st1 /= 0 .or. st2 /= 0) bytes = -1
    end if
    if (bytes < 0 .or. reps < BLOCKS) then
        write (0, '(a,i0,a)') "usage: pingpong-f90 bytes reps (reps >= ", BLOCKS, ")"
        error stop 2
    end if
    allocate(buf(max(bytes, 1)))
    buf = char(0)
    me = ens_self()
    p = ens_port("Peer", 1)
    first = me%index == 1
    n = reps / BLOCKS

    dummy = trips(.false., WARMUP)
    do b = 1, BLOCKS
        tens(b) = trips(.false., n)
        tmpi(b) = trips(.true., n)
    end do

    if (first) then
        call sort(tens)
        call sort(tmpi)
        write (*, '(a,i0,a,f0.3,a)') "pingpong ens ", bytes, " bytes: ", &
            tens(BLOCKS / 2 + 1) / n / 2 * 1d6, " us"
        write (*, '(a,i0,a,f0.3,a)') "pingpong mpi ", bytes, " bytes: ", &
            tmpi(BLOCKS / 2 + 1) / n / 2 * 1d6, " us"
        flush (6)
    end if
    deallocate(buf)
    call ens_finalize()

contains

    ! Make k round trips on Peer[1], through the module or raw mpi_f08;
    ! the first process sends first.  Returns the time they took.
    real(8) function trips(raw, k)
        logical, intent(in) :: raw
        integer, intent(in) :: k
        real(8) :: t0
        integer :: i, j, ierr

        t0 = MPI_Wtime()
        do i = 1, k
            do j = 0, 1
                if ((j == 0) .eqv. first) then
                    if (raw) then
                        call MPI_Send(buf, bytes, MPI_BYTE, p%rank, p%tag, p%comm, ierr)
                        if (ierr /= MPI_SUCCESS) call fail("MPI_Send")
                    else
                        call ens_send("Peer", 1, buf, bytes, MPI_BYTE)
                    end if
                else
                    if (raw) then
                        call MPI_Recv(buf, bytes, MPI_BYTE, p%rank, p%recv_tag, &
                            p%comm, MPI_STATUS_IGNORE, ierr)
                        if (ierr /= MPI_SUCCESS) call fail("MPI_Recv")
                    else
                        call ens_recv("Peer", 1, buf, bytes, MPI_BYTE)
                    end if
                end if
            end do
        end do
        trips = MPI_Wtime() - t0
    end function trips

    ! Stop on an MPI error from a raw call.
    subroutine fail(call)
        character(len=*), intent(in) :: call

        write (0, '(a,a,a)') "pingpong-f90: ", call, " failed"
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine fail

    ! Sort a few values in place.
    subroutine sort(v)
        real(8), intent(inout) :: v(:)
        real(8) :: x
        integer :: i, j

        do i = 2, size(v)
            x = v(i)
            j = i - 1
            do while (j >= 1)
                if (v(j) <= x) exit
                v(j + 1) = v(j)
                j = j - 1
            end do
            v(j + 1) = x
        end do
    end subroutine sort

end program pingpong
