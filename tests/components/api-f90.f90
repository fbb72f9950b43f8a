! api-f90.f90 -- a component for tests/bind-fortran.test that makes the
! calls of the Fortran module 'ensemble' beyond the relay's and prints
! what each gave it, with buffers of several types, kinds and ranks.  One
! 'hub' with ports W[1..2] and workers 'w[1..2]' with one port H[1];
! every process runs this program, and ens_self says which it is:
!
!     hub { bcast from hub; recv any W; recv any W;
!           issend W[1]; ibsend W[2]; irecv any; irecv any; waitall;
!           reduce to w[2]; allreduce; gather to w[1]; allgather;
!           scatter from hub; alltoall; barrier;
!           allgatherv; gatherv to w[2]; scatterv from hub; alltoallv;
!           reducescatter; }
!     w   { bcast from hub;
!           if index == 1 { ssend H[1]; } else { bsend H[1]; }
!           recv H[1];
!           isend H[1]; waitall;
!           reduce to w[2]; allreduce; gather to w[1]; allgather;
!           scatter from hub; alltoall; barrier;
!           allgatherv; gatherv to w[2]; scatterv from hub; alltoallv;
!           reducescatter; }
!
! Worker i sends i + 1 real(8)s to the hub's 'recv any W' (w[1] in
! synchronous mode, w[2] buffered), the hub a string to each (to w[1]
! synchronous, to w[2] buffered), and worker i sends i complex(8)s to
! the hub's 'irecv any', so that a message put down to the wrong port,
! or a wrong count, shows.  With a first argument that is not a
! number it goes wrong as misbehave.c does instead, on its port Peer[1]:
! 'protocol' and 'send' send, 'hang' and 'recv' receive, 'ok' does
! nothing, 'noncontig' sends a strided section, 'wrong-type' sends on a
! port type it does not have.  'group' (x[1..3], all in the group back =
! x[3], x[2], x[1]) makes every collective over it with ens_*_over, as
! tests/components/ports-cxx.cpp's group() does, and prints the same
! lines.  'p2p' makes the calls of issue 26 with Peer[1] (p2p below says
! its behaviour).
program api
    use mpi_f08
    use ensemble
    implicit none
    type(ens_self_t) :: me
    character(len=:), allocatable :: mode
    logical :: found
    integer :: v
    real(8) :: x(6)

    call ens_init()
    me = ens_self()
    mode = ens_param("1", found)
    v = 1
    x = 0d0
    select case (mode)
    case ("protocol", "send")
        call ens_send("Peer", 1, v, 1, MPI_INTEGER)
    case ("hang", "recv")
        call ens_recv("Peer", 1, v, 1, MPI_INTEGER)
    case ("ok")
    case ("noncontig")
        call ens_send("Peer", 1, x(1:6:2), 3, MPI_DOUBLE_PRECISION)
    case ("wrong-type")
        call ens_send("Nope", 1, v, 1, MPI_INTEGER)
    case ("group")
        call group(me)
    case ("p2p")
        call p2p(me)
    case default
        call whoami(me)
        call collectives(me)
        if (me%component == "hub") then
            call hub()
        else
            call worker(me)
        end if
        call after(me)
        call vforms(me)
    end select
    call ens_finalize()

contains

    ! sendrecv, sendrecv_replace, test, waitany, waitsome, probe,
    ! iprobe and iprobe_any with Peer[1], process i sending values made
    ! of i; its behaviour:
    !     sendrecv Peer[1], Peer[1]; sendrecv replace Peer[1], Peer[1];
    !     irecv Peer[1] as s; isend Peer[1] as r;
    !     test s { } else { wait s; } wait r;
    !     irecv Peer[1] as s; isend Peer[1] as r;
    !     waitany { on r { wait s; } on s { wait r; } }
    !     irecv Peer[1] as s; isend Peer[1] as r;
    !     waitsome { on r { } on s { } } waitall;
    !     isend Peer[1] as r; probe Peer[1]; recv Peer[1]; wait r;
    !     isend Peer[1] as r;
    !     iprobe any as m { recv m; } else { probe any as m; recv m; } wait r;
    ! (the last receive on the port and type the probe's status names).
    subroutine p2p(me)
        type(ens_self_t), intent(in) :: me
        integer :: i, two(2), got(2), n, k, p, q, idx(2), cnt
        integer, asynchronous :: in, out
        real(8) :: d(2)
        type(MPI_Request) :: rq(2)
        type(MPI_Status) :: st, sts(2)
        logical :: done
        character(len=:), allocatable :: t

        i = me%index
        two = [i, i + 10]
        call ens_sendrecv("Peer", 1, two, 2, MPI_INTEGER, "Peer", 1, got, 2, &
            MPI_INTEGER, st)
        call MPI_Get_count(st, MPI_INTEGER, cnt)
        write (*, '(a, ": sendrecv ", i0, 1x, i0, ", ", i0, " ints from Peer[", i0, "]")') &
            me%name, got(1), got(2), cnt, ens_port_of(st)
        d = [100d0 * i, 1d0]
        call ens_sendrecv_replace("Peer", 1, "Peer", 1, d, 2, MPI_DOUBLE_PRECISION)
        write (*, '(a, ": sendrecv_replace ", f0.1, 1x, f0.1)') me%name, d(1), d(2)
        out = 200 * i
        call ens_irecv("Peer", 1, in, 1, MPI_INTEGER, rq(2))
        call ens_isend("Peer", 1, out, 1, MPI_INTEGER, rq(1))
        done = ens_test(rq(2), st)
        if (.not. done) call ens_wait(rq(2), st)
        call ens_wait(rq(1))
        write (*, '(a, ": test ", i0, " from Peer[", i0, "]")') me%name, in, &
            ens_port_of(st)
        out = 300 * i
        call ens_irecv("Peer", 1, in, 1, MPI_INTEGER, rq(2))
        call ens_isend("Peer", 1, out, 1, MPI_INTEGER, rq(1))
        k = ens_waitany(rq)
        call ens_wait(rq(3 - k))
        write (*, '(a, ": waitany ", i0, ", index 1 or 2: ", l1)') me%name, in, &
            k == 1 .or. k == 2
        out = 400 * i
        call ens_irecv("Peer", 1, in, 1, MPI_INTEGER, rq(2))
        call ens_isend("Peer", 1, out, 1, MPI_INTEGER, rq(1))
        n = ens_waitsome(rq, idx, sts)
        call ens_waitall(rq)
        write (*, '(a, ": waitsome ", i0, ", one or both: ", l1)') me%name, in, &
            n == 1 .or. (n == 2 .and. idx(1) + idx(2) == 3)
        two = [500 * i, 500 * i + 1]
        call ens_isend("Peer", 1, two, 2, MPI_INTEGER, rq(1))
        call ens_probe("Peer", 1, st)
        call MPI_Get_count(st, MPI_INTEGER, cnt)
        call ens_recv("Peer", 1, got, 2, MPI_INTEGER)
        call ens_wait(rq(1))
        write (*, '(a, ": probe ", i0, " ints: ", i0, 1x, i0)') me%name, cnt, &
            got(1), got(2)
        out = 600 * i
        call ens_isend("Peer", 1, out, 1, MPI_INTEGER, rq(1))
        p = ens_iprobe_any("", st)
        if (p == 0) p = ens_probe_any("", st)
        q = ens_port_of(st, t)
        call ens_recv(t, q, in, 1, MPI_INTEGER)
        call ens_wait(rq(1))
        write (*, '(a, ": iprobe_any ", a, "[", i0, "], recv [", i0, "]: ", i0, &
            &", iprobe now: ", l1)') me%name, t, p, q, in, ens_iprobe("Peer", 1)
    end subroutine p2p

    ! ens_self, ens_param, ens_comm_component.
    subroutine whoami(me)
        type(ens_self_t), intent(in) :: me
        character(len=:), allocatable :: arg, greeting
        logical :: has_arg, has_nope
        integer :: csize, crank
        character(len=:), allocatable :: nope

        greeting = ens_param("greeting")
        arg = ens_param("1", has_arg)
        nope = ens_param("nope", has_nope)
        call MPI_Comm_size(ens_comm_component(), csize)
        call MPI_Comm_rank(ens_comm_component(), crank)
        write (*, '(a,a,a,a,i0,a,i0,a,i0,a,l1,a,a,a,a,a,l1,a,l1,a,i0,a,i0)') &
            me%name, ": component ", me%component, " index ", me%index, &
            " rank ", me%rank, " of ", me%nprocs, " indexed ", me%indexed, &
            "; greeting '", greeting, "' arg '", arg, "' (", has_arg, &
            "), nope ", has_nope .or. len(nope) /= 0, "; component rank ", &
            crank, " of ", csize
    end subroutine whoami

    ! bcast from hub: a rank-2 integer(8) array of large values.
    subroutine collectives(me)
        type(ens_self_t), intent(in) :: me
        integer(8) :: m(2, 3)
        integer :: k

        m = 0
        if (me%component == "hub") m = reshape([(k * 1000000000000_8, k = 1, 6)], [2, 3])
        call ens_bcast(m, 6, MPI_INTEGER8, "hub")
        write (*, '(a,a,6(1x,i0))') me%name, ": bcast", m
    end subroutine collectives

    ! The hub: recv_any with statuses, then issend, ibsend and irecv_any
    ! over any port (a blank type), completed by one waitall with statuses.
    subroutine hub()
        type(MPI_Status) :: st, sts(4)
        type(MPI_Request) :: req(4)
        type(ens_port_t) :: p
        real(8) :: r(8, 2)
        complex(8), asynchronous :: z(4, 2)
        character(len=8), asynchronous :: msg(2)
        character(len=:), allocatable :: t
        character(len=200) :: line
        integer :: k, i, j, c, by(2)

        do i = 1, 2
            k = ens_recv_any("W", r(:, i), 8, MPI_DOUBLE_PRECISION, st)
            call MPI_Get_count(st, MPI_DOUBLE_PRECISION, c)
            write (*, '(a,i0,a,i0,a,a,a,i0,a,8(1x,f0.1))') "hub: recv_any W[", k, &
                "] port_of ", ens_port_of(st, t), " ", t, " count ", c, ":", r(1:c, i)
        end do
        do i = 1, 2
            write (msg(i), '(a,i0,a)') "to w[", i, "]"
            if (i == 1) then
                call ens_issend("W", i, msg(i), 8, MPI_CHARACTER, req(i))
            else
                call ens_ibsend("W", i, msg(i), 8, MPI_CHARACTER, req(i))
            end if
        end do
        do i = 1, 2
            call ens_irecv_any("", z(:, i), 4, MPI_DOUBLE_COMPLEX, req(2 + i))
        end do
        call ens_waitall(req, sts)
        by = 0
        do i = 3, 4
            k = ens_port_of(sts(i))
            if (k >= 1 .and. k <= 2) by(k) = i
        end do
        do k = 1, 2
            i = by(k)
            if (i == 0) cycle
            call MPI_Get_count(sts(i), MPI_DOUBLE_COMPLEX, c)
            write (line, '(a,i0,a,a,a,i0,a)') "hub: irecv_any W[", &
                ens_port_of(sts(i), t), "] ", t, " count ", c, ":"
            do j = 1, c
                write (line(len_trim(line) + 1:), '(a,f0.1,a,f0.1,a)') " (", &
                    real(z(j, i - 2)), ",", aimag(z(j, i - 2)), ")"
            end do
            write (*, '(a)') trim(line)
        end do
        write (*, '(a,i0,1x,i0)') "hub: sends' port_of ", ens_port_of(sts(1)), &
            ens_port_of(sts(2))
        if (req(1) == MPI_REQUEST_NULL .and. req(4) == MPI_REQUEST_NULL) &
            write (*, '(a)') "hub: requests null after waitall"
        p = ens_port("W", 2)
        write (*, '(a,i0,a,l1)') "hub: port W[2] rank ", p%rank, ", comm is the world's size ", &
            comm_size(p%comm) == 3
    end subroutine hub

    integer function comm_size(c)
        type(MPI_Comm), intent(in) :: c

        call MPI_Comm_size(c, comm_size)
    end function comm_size

    ! A worker: i + 1 real(8)s, its string back, then i complex(8)s.
    subroutine worker(me)
        type(ens_self_t), intent(in) :: me
        type(MPI_Request) :: req(1)
        real(8) :: r(8)
        complex(8), asynchronous :: z(4)
        character(len=8), asynchronous :: msg
        integer :: i, k

        i = me%index
        r = [(i + 0.5d0 * k, k = 1, 8)]
        if (i == 1) then
            call ens_ssend("H", 1, r, i + 1, MPI_DOUBLE_PRECISION)
        else
            call ens_bsend("H", 1, r, i + 1, MPI_DOUBLE_PRECISION)
        end if
        call ens_recv("H", 1, msg, 8, MPI_CHARACTER)
        z = [(cmplx(i, -k, 8), k = 1, 4)]
        call ens_isend("H", 1, z, i, MPI_DOUBLE_COMPLEX, req(1))
        call ens_waitall(req(1:1))
        write (*, '(a,a,a,a)') me%name, ": got '", msg, "'"
    end subroutine worker

    ! Every rooted and unrooted collective, with roots named.
    subroutine after(me)
        type(ens_self_t), intent(in) :: me
        integer(2) :: one, sum
        real(4) :: f, fmax
        logical :: odd, odds(3)
        integer(1) :: b, bs(3)
        character(len=2) :: words(3), word
        real(8) :: sa(3), ra(3)
        character(len=300) :: line
        integer :: k

        one = int(me%rank + 1, 2)
        sum = -1
        call ens_reduce(one, sum, 1, MPI_INTEGER2, MPI_SUM, "w[2]")
        f = 1.5 * me%rank
        call ens_allreduce(f, fmax, 1, MPI_REAL, MPI_MAX)
        odd = mod(me%rank, 2) == 1
        odds = .false.
        call ens_gather(odd, 1, MPI_LOGICAL, odds, 1, MPI_LOGICAL, "w[1]")
        b = int(10 * me%rank, 1)
        call ens_allgather(b, 1, MPI_INTEGER1, bs, 1, MPI_INTEGER1)
        words = ["aa", "bb", "cc"]
        word = "--"
        call ens_scatter(words, 2, MPI_CHARACTER, word, 2, MPI_CHARACTER, "hub")
        sa = [(10d0 * me%rank + k, k = 0, 2)]
        call ens_alltoall(sa, 1, MPI_DOUBLE_PRECISION, ra, 1, MPI_DOUBLE_PRECISION)
        call ens_barrier()
        write (line, '(a,a,i0,a,f0.1,a,3(1x,l1),a,3(1x,i0),a,a,a,3(1x,f0.1))') &
            me%name, ": reduce ", sum, "; allreduce ", fmax, "; gather", odds, &
            "; allgather", bs, "; scatter ", word, "; alltoall", ra
        write (*, '(a)') trim(line)
    end subroutine after

    ! The v-forms: rank r's block is r + 1 elements, displacements in
    ! reverse rank order where one taken from the wrong place would show.
    subroutine vforms(me)
        type(ens_self_t), intent(in) :: me
        integer :: r, k, mine(3), ag(6), gv(6), to(3), from(3), rsend(6), rs(3)
        real(8) :: sv(6), got(3)
        character(len=300) :: line

        r = me%rank
        mine = r
        ag = -1
        call ens_allgatherv(mine, r + 1, MPI_INTEGER, ag, [1, 2, 3], [0, 1, 3], &
            MPI_INTEGER)
        gv = -1
        call ens_gatherv(mine, r + 1, MPI_INTEGER, gv, [1, 2, 3], [5, 3, 0], &
            MPI_INTEGER, "w[2]")
        sv = [10d0, 20d0, 21d0, 30d0, 31d0, 32d0]
        got = 0
        call ens_scatterv(sv, [1, 2, 3], [0, 1, 3], MPI_DOUBLE_PRECISION, got, &
            r + 1, MPI_DOUBLE_PRECISION, "hub")
        to = [100 * r + 2, 100 * r + 1, 100 * r]
        from = -1
        call ens_alltoallv(to, [1, 1, 1], [2, 1, 0], MPI_INTEGER, from, &
            [1, 1, 1], [0, 1, 2], MPI_INTEGER)
        rsend = [(10 * r + k, k = 0, 5)]
        rs = 0
        call ens_reduce_scatter(rsend, rs, [1, 2, 3], MPI_INTEGER, MPI_SUM)
        write (line, '(a,a,6(1x,i0),a,6(1x,i0),a,3(1x,f0.1),a,3(1x,i0),a,3(1x,i0))') &
            me%name, ": allgatherv", ag, "; gatherv", gv, "; scatterv", got, &
            "; alltoallv", from, "; reduce_scatter", rs
        write (*, '(a)') trim(line)
    end subroutine vforms

    ! Every collective over back (group rank r is x[3 - r]), in the order and
    ! words of ports-cxx.cpp's group().
    subroutine group(me)
        type(ens_self_t), intent(in) :: me
        integer :: r, n, k, b(2), rr(2), one, total, g(3), ag(3), piece
        integer :: frm(3), six(6), at_root(6), got(3), vfrom(3), rgot(3)
        character(len=*), parameter :: fmt = '(a,a,*(1x,i0))'

        call MPI_Comm_rank(ens_comm_group("back", 0), r)
        call MPI_Comm_size(ens_comm_group("back", 0), n)
        write (*, '(a,a,i0,a,i0,a)') me%name, ": rank ", r, " of ", n, " in back"
        call ens_barrier_over("back", 0)
        b = 0
        if (r == 0) b = [7, 8]
        call ens_bcast_over(b, 2, MPI_INTEGER, "x[3]", "back", 0)
        write (*, fmt) me%name, ": bcast", b
        call ens_reduce_over([r, 1], rr, 2, MPI_INTEGER, MPI_SUM, "x[1]", "back", 0)
        if (r == 2) write (*, fmt) me%name, ": reduce", rr
        one = r + 1
        call ens_allreduce_over(one, total, 1, MPI_INTEGER, MPI_SUM, "back", 0)
        write (*, fmt) me%name, ": allreduce", total
        call ens_gather_over(me%rank, 1, MPI_INTEGER, g, 1, MPI_INTEGER, "x[3]", &
            "back", 0)
        if (r == 0) write (*, fmt) me%name, ": gather", g
        call ens_allgather_over(me%index, 1, MPI_INTEGER, ag, 1, MPI_INTEGER, &
            "back", 0)
        write (*, fmt) me%name, ": allgather", ag
        call ens_scatter_over([7, 8, 9], 1, MPI_INTEGER, piece, 1, MPI_INTEGER, &
            "x[2]", "back", 0)
        write (*, fmt) me%name, ": scatter", piece
        call ens_alltoall_over([(10 * r + k, k = 0, 2)], 1, MPI_INTEGER, frm, 1, &
            MPI_INTEGER, "back", 0)
        write (*, fmt) me%name, ": alltoall", frm
        six = -1
        call ens_allgatherv_over([r, r, r], r + 1, MPI_INTEGER, six, [1, 2, 3], &
            [0, 1, 3], MPI_INTEGER, "back", 0)
        write (*, fmt) me%name, ": allgatherv", six
        at_root = -1
        call ens_gatherv_over([r, r, r], r + 1, MPI_INTEGER, at_root, [1, 2, 3], &
            [5, 3, 0], MPI_INTEGER, "x[3]", "back", 0)
        if (r == 0) write (*, fmt) me%name, ": gatherv", at_root
        got = -1
        call ens_scatterv_over([10, 20, 21, 30, 31, 32], [1, 2, 3], [0, 1, 3], &
            MPI_INTEGER, got, r + 1, MPI_INTEGER, "x[1]", "back", 0)
        write (*, fmt) me%name, ": scatterv", got(1:r + 1)
        call ens_alltoallv_over([10 * r + 2, 10 * r + 1, 10 * r], [1, 1, 1], &
            [2, 1, 0], MPI_INTEGER, vfrom, [1, 1, 1], [0, 1, 2], MPI_INTEGER, &
            "back", 0)
        write (*, fmt) me%name, ": alltoallv", vfrom
        rgot = -1
        call ens_reduce_scatter_over([(10 * r + k, k = 0, 5)], rgot, [1, 2, 3], &
            MPI_INTEGER, MPI_SUM, "back", 0)
        write (*, fmt) me%name, ": reduce_scatter", rgot(1:r + 1)
    end subroutine group

end program api
