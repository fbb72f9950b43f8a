! jacobi-f90.f90 -- jacobi.c in Fortran through the module 'ensemble': one
! slab of a 1-D heat equation on a rod whose ends are held at 1 (left) and
! 0 (right), solved by Jacobi iteration.  The same ports, behaviour and
! arithmetic, in the same order, as jacobi.c (components/jacobi.pcg), so
! that its output equals the C component's: the cells are split into
! contiguous blocks in index order, each iteration exchanges one halo cell
! with the Left and Right neighbours and agrees on the residual and the
! sum with an allreduce; process 1 prints the result.
program jacobi
    use mpi_f08
    use ensemble
    implicit none
    type(MPI_Request) :: req(4)
    real(8), allocatable, target, asynchronous :: a(:), b(:)
    real(8), pointer, asynchronous :: u(:), unew(:), tmp(:)
    real(8) :: s(2), g(2)
    integer :: cells, iters, nprocs, i, n, nreq, it, j, st
    logical :: left, right
    character(len=64) :: arg
    character(len=200) :: line

    call ens_init()
    if (command_argument_count() /= 2) then
        write (0, '(a)') "usage: jacobi cells iters"
        error stop 2
    end if
    call get_command_argument(1, arg)
    read (arg, *, iostat=st) cells
    if (st /= 0) cells = 0
    call get_command_argument(2, arg)
    read (arg, *, iostat=st) iters
    if (st /= 0) iters = 0
    nprocs = ens_self_nprocs()
    i = ens_self_index()
    if (cells < nprocs) then
        write (0, '(a,i0,a,i0,a)') "jacobi: ", cells, &
            " cells cannot be split over ", nprocs, &
            " processes (at least one cell each)"
        error stop 2
    end if

    ! Block i of nprocs; the first mod(cells, nprocs) blocks get one more.
    n = cells / nprocs
    if (i - 1 < mod(cells, nprocs)) n = n + 1
    left = ens_ports("Left") > 0
    right = ens_ports("Right") > 0

    ! u(1:n) are the cells, u(0) and u(n + 1) the halos: the neighbour's
    ! cell, or the boundary value at the rod's end, which both arrays hold
    ! so that swapping them keeps it.
    allocate(a(0:n + 1), b(0:n + 1))
    a = 0d0
    b = 0d0
    u => a
    unew => b
    if (.not. left) then
        u(0) = 1d0
        unew(0) = 1d0
    end if

    g = 0d0
    do it = 1, iters
        nreq = 0
        if (left) then
            nreq = nreq + 1
            call ens_isend("Left", 1, u(1), 1, MPI_DOUBLE_PRECISION, req(nreq))
        end if
        if (right) then
            nreq = nreq + 1
            call ens_isend("Right", 1, u(n), 1, MPI_DOUBLE_PRECISION, req(nreq))
        end if
        if (left) then
            nreq = nreq + 1
            call ens_irecv("Left", 1, u(0), 1, MPI_DOUBLE_PRECISION, req(nreq))
        end if
        if (right) then
            nreq = nreq + 1
            call ens_irecv("Right", 1, u(n + 1), 1, MPI_DOUBLE_PRECISION, req(nreq))
        end if
        call ens_waitall(req(1:nreq))

        s = 0d0
        do j = 1, n
            unew(j) = (u(j - 1) + u(j + 1)) / 2
            s(1) = s(1) + (unew(j) - u(j)) * (unew(j) - u(j))
            s(2) = s(2) + unew(j)
        end do
        call ens_allreduce(s, g, 2, MPI_DOUBLE_PRECISION, MPI_SUM)
        tmp => u
        u => unew
        unew => tmp
    end do

    if (i == 1) then
        write (line, '(a,i0,a,i0,a,a,a,a)') "jacobi: ", iters, " iterations, ", &
            cells, " cells, residual ", c_e15(sqrt(g(1))), ", sum ", c_e15(g(2))
        write (*, '(a)') trim(line)
        flush (6)
    end if
    deallocate(a, b)
    call ens_finalize()

contains

    ! ens_self's nprocs and index.
    integer function ens_self_nprocs()
        type(ens_self_t) :: me

        me = ens_self()
        ens_self_nprocs = me%nprocs
    end function ens_self_nprocs

    integer function ens_self_index()
        type(ens_self_t) :: me

        me = ens_self()
        ens_self_index = me%index
    end function ens_self_index

    ! x as C's "%.15e" prints it: 1.234567890123457e-05 (Fortran's ES
    ! descriptor gives "1.234567890123457E-05"; C has at least two
    ! exponent digits, lower case).
    function c_e15(x) result(r)
        real(8), intent(in) :: x
        character(len=:), allocatable :: r
        character(len=40) :: f
        integer :: k

        write (f, '(es23.15e3)') x
        f = adjustl(f)
        k = index(f, "E")
        ! Drop the exponent's leading zero beyond two digits.
        if (f(k + 2:k + 2) == "0") then
            r = f(1:k - 1) // "e" // f(k + 1:k + 1) // trim(f(k + 3:))
        else
            r = f(1:k - 1) // "e" // trim(f(k + 1:))
        end if
    end function c_e15

end program jacobi
