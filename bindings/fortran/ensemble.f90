! ensemble.f90 -- the Fortran binding of libensemble: a module 'ensemble'
! on mpi_f08 types.  Each routine is libensemble's C call of the same name
! (libensemble(3), FORTRAN): a port is named by its type and 1-based index,
! roots by the process's name as in the script, a group ('over G') by its
! name and index (ens_*_over, as in C).
!
!     use ensemble          ! mpifort prog.f90 $(pkg-config --cflags --libs ensemble-fortran)
!     call ens_init()
!     do i = 1, ens_ports("Client")
!         call ens_recv("Client", i, v, 1, MPI_INTEGER)
!     end do
!     call ens_finalize()
!
! Buffers are assumed-type, assumed-rank (type(*), dimension(..)): a
! scalar or a contiguous array of any rank, kind and type, with a count
! and an MPI datatype as in mpi_f08; one interface serves every kind
! instead of a generic per type, kind and rank.  The calls that take a
! buffer are BIND(C) interfaces of the C shim (shim.c) itself: the buffer
! and the strings arrive as ISO_Fortran_binding descriptors, the handles
! as their MPI_VAL, with no Fortran wrapper between (gfortran 12 passes a
! hidden length for a character actual argument of an assumed-type dummy
! of a Fortran procedure, which would shift a later string's length).  A
! non-contiguous actual argument (a strided section) stops the
! application, named.  Strings (port types, names, roots) lose their
! trailing blanks.  Misuse and MPI errors stop the application as in C;
! nothing returns an error code.
module ensemble
    use, intrinsic :: iso_c_binding
    use mpi_f08
    implicit none
    private

    public :: ens_self_t, ens_port_t
    public :: ens_init, ens_finalize, ens_ports, ens_self, ens_port, ens_param
    public :: ens_comm_component
    public :: ens_send, ens_ssend, ens_bsend, ens_recv, ens_recv_any
    public :: ens_isend, ens_issend, ens_ibsend, ens_irecv, ens_irecv_any
    public :: ens_waitall, ens_port_of
    public :: ens_sendrecv, ens_sendrecv_replace, ens_wait, ens_test
    public :: ens_waitany, ens_waitsome, ens_probe, ens_probe_any, ens_iprobe
    public :: ens_iprobe_any
    public :: ens_barrier, ens_bcast, ens_reduce, ens_allreduce, ens_gather
    public :: ens_allgather, ens_scatter, ens_alltoall
    public :: ens_allgatherv, ens_gatherv, ens_scatterv, ens_alltoallv
    public :: ens_reduce_scatter
    public :: ens_comm_group, ens_barrier_over, ens_bcast_over, ens_reduce_over
    public :: ens_allreduce_over, ens_gather_over, ens_allgather_over
    public :: ens_scatter_over, ens_alltoall_over, ens_allgatherv_over
    public :: ens_gatherv_over, ens_scatterv_over, ens_alltoallv_over
    public :: ens_reduce_scatter_over

    ! Who this process is (ens_self).
    type :: ens_self_t
        character(len=:), allocatable :: name       ! "relay[2]"
        character(len=:), allocatable :: component  ! "relay"
        integer :: index = 0                        ! 2; 0 unindexed
        integer :: rank = 0                         ! 0-based, script order
        integer :: nprocs = 0
        logical :: indexed = .false.
    end type ens_self_t

    ! A port as MPI sees it (ens_port): send to rank in comm with tag,
    ! receive with recv_tag.
    type :: ens_port_t
        type(MPI_Comm) :: comm
        integer :: rank = -1
        integer :: tag = 0
        integer :: recv_tag = 0
    end type ens_port_t

    interface
        subroutine c_init(prog, len) bind(C, name="ens_f08_init")
            import :: c_char, c_int
            character(kind=c_char), intent(in) :: prog(*)
            integer(c_int), value :: len
        end subroutine
        subroutine c_finalize() bind(C, name="ens_f08_finalize")
        end subroutine
        integer(c_int) function c_ports(type, len) bind(C, name="ens_f08_ports")
            import :: c_char, c_int
            character(kind=c_char), intent(in) :: type(*)
            integer(c_int), value :: len
        end function
        subroutine c_self(name, comp, index, rank, nprocs, indexed) &
                bind(C, name="ens_f08_self")
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: name, comp
            integer(c_int), intent(out) :: index, rank, nprocs, indexed
        end subroutine
        subroutine c_port(type, len, index, comm, rank, tag, recv_tag) &
                bind(C, name="ens_f08_port")
            import :: c_char, c_int
            character(kind=c_char), intent(in) :: type(*)
            integer(c_int), value :: len, index
            integer(c_int), intent(out) :: comm, rank, tag, recv_tag
        end subroutine
        type(c_ptr) function c_param(name, len) bind(C, name="ens_f08_param")
            import :: c_ptr, c_char, c_int
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: len
        end function
        integer(c_int) function c_comm_component() &
                bind(C, name="ens_f08_comm_component")
            import :: c_int
        end function
        ! Point to point on one port: a standard-mode send,
        subroutine ens_send(type, index, buf, count, datatype) bind(C, name="ens_f08_send")
            import :: c_char, c_int, MPI_Datatype
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in) :: buf
            type(MPI_Datatype), intent(in) :: datatype
        end subroutine
        ! a synchronous one,
        subroutine ens_ssend(type, index, buf, count, datatype) bind(C, name="ens_f08_ssend")
            import :: c_char, c_int, MPI_Datatype
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in) :: buf
            type(MPI_Datatype), intent(in) :: datatype
        end subroutine
        ! a buffered one (libensemble attaches the buffer).
        subroutine ens_bsend(type, index, buf, count, datatype) bind(C, name="ens_f08_bsend")
            import :: c_char, c_int, MPI_Datatype
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in) :: buf
            type(MPI_Datatype), intent(in) :: datatype
        end subroutine
        ! Receive one message on a port, filling status when given.
        subroutine ens_recv(type, index, buf, count, datatype, status) &
                bind(C, name="ens_f08_recv")
            import :: c_char, c_int, MPI_Datatype, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(inout) :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Status), intent(out), optional :: status
        end subroutine
        ! Receive from whichever port of the type has a message (a blank
        ! type: any port); returns that port's index.
        integer(c_int) function ens_recv_any(type, buf, count, datatype, status) &
                bind(C, name="ens_f08_recv_any")
            import :: c_char, c_int, MPI_Datatype, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            type(*), dimension(..), intent(inout) :: buf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Status), intent(out), optional :: status
        end function
        ! Non-blocking: standard, synchronous, buffered sends, receives.
        subroutine ens_isend(type, index, buf, count, datatype, request) &
                bind(C, name="ens_f08_isend")
            import :: c_char, c_int, MPI_Datatype, MPI_Request
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in), asynchronous :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Request), intent(out) :: request
        end subroutine
        ! (synchronous)
        subroutine ens_issend(type, index, buf, count, datatype, request) &
                bind(C, name="ens_f08_issend")
            import :: c_char, c_int, MPI_Datatype, MPI_Request
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in), asynchronous :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Request), intent(out) :: request
        end subroutine
        ! (buffered)
        subroutine ens_ibsend(type, index, buf, count, datatype, request) &
                bind(C, name="ens_f08_ibsend")
            import :: c_char, c_int, MPI_Datatype, MPI_Request
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(in), asynchronous :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Request), intent(out) :: request
        end subroutine
        ! (a receive)
        subroutine ens_irecv(type, index, buf, count, datatype, request) &
                bind(C, name="ens_f08_irecv")
            import :: c_char, c_int, MPI_Datatype, MPI_Request
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index, count
            type(*), dimension(..), intent(inout), asynchronous :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Request), intent(out) :: request
        end subroutine
        ! A receive from any port (a blank type), or from every port of a
        ! type that holds all of the process's connected ports.
        subroutine ens_irecv_any(type, buf, count, datatype, request) &
                bind(C, name="ens_f08_irecv_any")
            import :: c_char, c_int, MPI_Datatype, MPI_Request
            character(kind=c_char, len=*), intent(in) :: type
            type(*), dimension(..), intent(inout), asynchronous :: buf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Request), intent(out) :: request
        end subroutine
        subroutine c_waitall(n, reqs, statuses, status_size) bind(C, name="ens_f08_waitall")
            import :: c_int, MPI_Request, MPI_Status
            integer(c_int), value :: n, status_size
            type(MPI_Request), intent(inout) :: reqs(*)
            type(MPI_Status), intent(inout), optional :: statuses(*)
        end subroutine
        ! Send on one port and receive on another at once; the status is
        ! the receive's.
        subroutine ens_sendrecv(stype, sindex, sendbuf, sendcount, sendtype, &
                rtype, rindex, recvbuf, recvcount, recvtype, status) &
                bind(C, name="ens_f08_sendrecv")
            import :: c_char, c_int, MPI_Datatype, MPI_Status
            character(kind=c_char, len=*), intent(in) :: stype, rtype
            integer(c_int), intent(in) :: sindex, sendcount, rindex, recvcount
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(MPI_Status), intent(out), optional :: status
        end subroutine
        ! The same in one buffer.
        subroutine ens_sendrecv_replace(stype, sindex, rtype, rindex, buf, &
                count, datatype, status) bind(C, name="ens_f08_sendrecv_replace")
            import :: c_char, c_int, MPI_Datatype, MPI_Status
            character(kind=c_char, len=*), intent(in) :: stype, rtype
            integer(c_int), intent(in) :: sindex, rindex, count
            type(*), dimension(..), intent(inout) :: buf
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Status), intent(out), optional :: status
        end subroutine
        ! Complete one request.
        subroutine ens_wait(request, status) bind(C, name="ens_f08_wait")
            import :: MPI_Request, MPI_Status
            type(MPI_Request), intent(inout) :: request
            type(MPI_Status), intent(out), optional :: status
        end subroutine
        integer(c_int) function c_test(request, status) bind(C, name="ens_f08_test")
            import :: c_int, MPI_Request, MPI_Status
            type(MPI_Request), intent(inout) :: request
            type(MPI_Status), intent(out), optional :: status
        end function
        integer(c_int) function c_waitany(n, reqs, status) bind(C, name="ens_f08_waitany")
            import :: c_int, MPI_Request, MPI_Status
            integer(c_int), value :: n
            type(MPI_Request), intent(inout) :: reqs(*)
            type(MPI_Status), intent(out), optional :: status
        end function
        integer(c_int) function c_waitsome(n, reqs, indices, statuses, status_size) &
                bind(C, name="ens_f08_waitsome")
            import :: c_int, MPI_Request, MPI_Status
            integer(c_int), value :: n, status_size
            type(MPI_Request), intent(inout) :: reqs(*)
            integer(c_int), intent(out) :: indices(*)
            type(MPI_Status), intent(inout), optional :: statuses(*)
        end function
        ! Wait until a message can be received on a port, without
        ! receiving it.
        subroutine ens_probe(type, index, status) bind(C, name="ens_f08_probe")
            import :: c_char, c_int, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index
            type(MPI_Status), intent(out), optional :: status
        end subroutine
        ! The same on any port of the type (a blank type: any port); its
        ! index.
        integer(c_int) function ens_probe_any(type, status) bind(C, name="ens_f08_probe_any")
            import :: c_char, c_int, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            type(MPI_Status), intent(out), optional :: status
        end function
        integer(c_int) function c_iprobe(type, index, status) bind(C, name="ens_f08_iprobe")
            import :: c_char, c_int, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            integer(c_int), intent(in) :: index
            type(MPI_Status), intent(out), optional :: status
        end function
        ! Without waiting: the index of a port of the type with a message,
        ! 0 when there is none.
        integer(c_int) function ens_iprobe_any(type, status) bind(C, name="ens_f08_iprobe_any")
            import :: c_char, c_int, MPI_Status
            character(kind=c_char, len=*), intent(in) :: type
            type(MPI_Status), intent(out), optional :: status
        end function
        integer(c_int) function c_port_of(status, type) bind(C, name="ens_f08_port_of")
            import :: c_int, c_ptr, MPI_Status
            type(MPI_Status), intent(in) :: status
            type(c_ptr), intent(out) :: type
        end function
        subroutine c_barrier() bind(C, name="ens_f08_barrier")
        end subroutine
        ! Collectives over every process of the application; a root is a
        ! process's name as in the script ("relay[1]", "master").
        subroutine ens_bcast(buf, count, datatype, root) bind(C, name="ens_f08_bcast")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(inout) :: buf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        subroutine ens_reduce(sendbuf, recvbuf, count, datatype, op, root) &
                bind(C, name="ens_f08_reduce")
            import :: c_char, c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        subroutine ens_allreduce(sendbuf, recvbuf, count, datatype, op) &
                bind(C, name="ens_f08_allreduce")
            import :: c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
        end subroutine
        ! Every process's sendbuf into root's recvbuf, in rank order.
        subroutine ens_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
                recvtype, root) bind(C, name="ens_f08_gather")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        ! The same, into every process's.
        subroutine ens_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
                recvtype) bind(C, name="ens_f08_allgather")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
        end subroutine
        ! The k-th block of root's sendbuf to the process of rank k.
        subroutine ens_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
                recvtype, root) bind(C, name="ens_f08_scatter")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        ! The k-th block of every process's sendbuf to rank k.
        subroutine ens_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
                recvtype) bind(C, name="ens_f08_alltoall")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
        end subroutine
        ! The v-forms: counts and displacements (from 0, in elements) per
        ! process, in rank order.
        subroutine ens_allgatherv(sendbuf, sendcount, sendtype, recvbuf, &
                recvcounts, displs, recvtype) bind(C, name="ens_f08_allgatherv")
            import :: c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount
            integer(c_int), intent(in) :: recvcounts(*), displs(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
        end subroutine
        subroutine ens_gatherv(sendbuf, sendcount, sendtype, recvbuf, &
                recvcounts, displs, recvtype, root) bind(C, name="ens_f08_gatherv")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount
            integer(c_int), intent(in) :: recvcounts(*), displs(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        subroutine ens_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, &
                recvcount, recvtype, root) bind(C, name="ens_f08_scatterv")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcounts(*), displs(*)
            integer(c_int), intent(in) :: recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
        end subroutine
        subroutine ens_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
                recvcounts, rdispls, recvtype) bind(C, name="ens_f08_alltoallv")
            import :: c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcounts(*), sdispls(*)
            integer(c_int), intent(in) :: recvcounts(*), rdispls(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
        end subroutine
        subroutine ens_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op) &
                bind(C, name="ens_f08_reduce_scatter")
            import :: c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: recvcounts(*)
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
        end subroutine
        ! The same collectives over a group of the script ('over G'): its
        ! name and index (0 for none) last, as ens_*_over in C.
        subroutine ens_barrier_over(group, index) bind(C, name="ens_f08_barrier_over")
            import :: c_char, c_int
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        integer(c_int) function c_comm_group(group, index) &
                bind(C, name="ens_f08_comm_group")
            import :: c_char, c_int
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end function
        subroutine ens_bcast_over(buf, count, datatype, root, group, index) &
                bind(C, name="ens_f08_bcast_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(inout) :: buf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_reduce_over(sendbuf, recvbuf, count, datatype, op, root, &
                group, index) bind(C, name="ens_f08_reduce_over")
            import :: c_char, c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_allreduce_over(sendbuf, recvbuf, count, datatype, op, &
                group, index) bind(C, name="ens_f08_allreduce_over")
            import :: c_char, c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: count
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_gather_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcount, recvtype, root, group, index) &
                bind(C, name="ens_f08_gather_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_allgather_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcount, recvtype, group, index) &
                bind(C, name="ens_f08_allgather_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_scatter_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcount, recvtype, root, group, index) &
                bind(C, name="ens_f08_scatter_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_alltoall_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcount, recvtype, group, index) &
                bind(C, name="ens_f08_alltoall_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount, recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_allgatherv_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcounts, displs, recvtype, group, index) &
                bind(C, name="ens_f08_allgatherv_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount
            integer(c_int), intent(in) :: recvcounts(*), displs(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_gatherv_over(sendbuf, sendcount, sendtype, recvbuf, &
                recvcounts, displs, recvtype, root, group, index) &
                bind(C, name="ens_f08_gatherv_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcount
            integer(c_int), intent(in) :: recvcounts(*), displs(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_scatterv_over(sendbuf, sendcounts, displs, sendtype, &
                recvbuf, recvcount, recvtype, root, group, index) &
                bind(C, name="ens_f08_scatterv_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcounts(*), displs(*)
            integer(c_int), intent(in) :: recvcount
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: root
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_alltoallv_over(sendbuf, sendcounts, sdispls, sendtype, &
                recvbuf, recvcounts, rdispls, recvtype, group, index) &
                bind(C, name="ens_f08_alltoallv_over")
            import :: c_char, c_int, MPI_Datatype
            type(*), dimension(..), intent(in) :: sendbuf
            integer(c_int), intent(in) :: sendcounts(*), sdispls(*)
            integer(c_int), intent(in) :: recvcounts(*), rdispls(*)
            type(MPI_Datatype), intent(in) :: sendtype, recvtype
            type(*), dimension(..), intent(inout) :: recvbuf
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine ens_reduce_scatter_over(sendbuf, recvbuf, recvcounts, &
                datatype, op, group, index) &
                bind(C, name="ens_f08_reduce_scatter_over")
            import :: c_char, c_int, MPI_Datatype, MPI_Op
            type(*), dimension(..), intent(in) :: sendbuf
            type(*), dimension(..), intent(inout) :: recvbuf
            integer(c_int), intent(in) :: recvcounts(*)
            type(MPI_Datatype), intent(in) :: datatype
            type(MPI_Op), intent(in) :: op
            character(kind=c_char, len=*), intent(in) :: group
            integer(c_int), intent(in) :: index
        end subroutine
        subroutine c_exit(status) bind(C, name="exit")
            import :: c_int
            integer(c_int), value :: status
        end subroutine
        integer(c_size_t) function c_strlen(s) bind(C, name="strlen")
            import :: c_size_t, c_ptr
            type(c_ptr), value :: s
        end function
    end interface

contains

    ! A C string of libensemble's as a Fortran string ("" for NULL).
    function from_c(p) result(s)
        type(c_ptr), intent(in) :: p
        character(len=:), allocatable :: s
        character(kind=c_char), pointer :: a(:)
        integer :: n, i

        if (.not. c_associated(p)) then
            s = ""
            return
        end if
        n = int(c_strlen(p))
        call c_f_pointer(p, a, [n])
        allocate(character(len=n) :: s)
        do i = 1, n
            s(i:i) = a(i)
        end do
    end function from_c

    ! MPI_Init, then the port table made by 'ensemble run' (libensemble's
    ! ens_init); the arguments stay get_command_argument's.
    subroutine ens_init()
        type(MPI_Status) :: st
        integer :: sz(1)
        character(len=4096) :: prog
        integer :: n

        ! The shim takes a type(MPI_Status) for the Fortran status array
        ! of MPI_STATUS_SIZE integers it is in Open MPI.
        if (storage_size(st) /= MPI_STATUS_SIZE * storage_size(sz)) then
            write (0, '(a)') "ensemble: ens_init: this MPI's type(MPI_Status) is not " // &
                "MPI_STATUS_SIZE integers; the Fortran binding needs Open MPI's"
            error stop 70
        end if
        call get_command_argument(0, prog, n)
        call c_init(prog, len_trim(prog))
    end subroutine ens_init

    ! Write this process's part of the trace (--trace), then MPI_Finalize.
    subroutine ens_finalize()
        call c_finalize()
    end subroutine ens_finalize

    ! The number of ports of a type (0 when the process has none).
    integer function ens_ports(type)
        character(len=*), intent(in) :: type

        ens_ports = c_ports(type, len_trim(type))
    end function ens_ports

    ! Who this process is.
    function ens_self() result(s)
        type(ens_self_t) :: s
        type(c_ptr) :: name, comp
        integer(c_int) :: index, rank, nprocs, indexed

        call c_self(name, comp, index, rank, nprocs, indexed)
        s%name = from_c(name)
        s%component = from_c(comp)
        s%index = index
        s%rank = rank
        s%nprocs = nprocs
        s%indexed = indexed /= 0
    end function ens_self

    ! A port as MPI sees it, for calling mpi_f08 directly.
    function ens_port(type, index) result(p)
        character(len=*), intent(in) :: type
        integer, intent(in) :: index
        type(ens_port_t) :: p
        integer(c_int) :: comm

        call c_port(type, len_trim(type), index, comm, p%rank, p%tag, p%recv_tag)
        p%comm%MPI_VAL = comm
    end function ens_port

    ! A script parameter's value, or the k-th of the process's args for
    ! name "k"; "" and found .false. when there is none.
    function ens_param(name, found) result(v)
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        character(len=:), allocatable :: v
        type(c_ptr) :: p

        p = c_param(name, len_trim(name))
        if (present(found)) found = c_associated(p)
        v = from_c(p)
    end function ens_param

    ! The communicator of this process's component's processes.
    function ens_comm_component() result(c)
        type(MPI_Comm) :: c

        c%MPI_VAL = c_comm_component()
    end function ens_comm_component

    ! The communicator of a group of the script this process is in: its
    ! name and index (0 for none), ranks in the order the script lists
    ! its members.
    function ens_comm_group(group, index) result(c)
        character(len=*), intent(in) :: group
        integer, intent(in) :: index
        type(MPI_Comm) :: c

        c%MPI_VAL = c_comm_group(group, index)
    end function ens_comm_group

    ! Wait for every request of the array, filling one status per request
    ! when statuses is given.
    subroutine ens_waitall(requests, statuses)
        type(MPI_Request), intent(inout) :: requests(:)
        type(MPI_Status), intent(out), optional :: statuses(:)

        if (present(statuses)) then
            if (size(statuses) < size(requests)) then
                call fail("ens_waitall", "fewer statuses than requests")
            end if
            call c_waitall(size(requests), requests, statuses, MPI_STATUS_SIZE)
        else
            call c_waitall(size(requests), requests, status_size=MPI_STATUS_SIZE)
        end if
    end subroutine ens_waitall

    ! Complete the request if it can be: .true., else .false.
    logical function ens_test(request, status)
        type(MPI_Request), intent(inout) :: request
        type(MPI_Status), intent(out), optional :: status

        ens_test = c_test(request, status) /= 0
    end function ens_test

    ! Complete one of the requests: its index, from 1, or MPI_UNDEFINED
    ! when none is pending.
    integer function ens_waitany(requests, status)
        type(MPI_Request), intent(inout) :: requests(:)
        type(MPI_Status), intent(out), optional :: status

        ens_waitany = c_waitany(size(requests), requests, status)
    end function ens_waitany

    ! Complete every request that can be, at least one: how many (their
    ! indices, from 1, first in indices; their statuses in statuses), or
    ! MPI_UNDEFINED when none is pending.
    integer function ens_waitsome(requests, indices, statuses)
        type(MPI_Request), intent(inout) :: requests(:)
        integer, intent(out) :: indices(:)
        type(MPI_Status), intent(out), optional :: statuses(:)

        if (size(indices) < size(requests)) then
            call fail("ens_waitsome", "fewer indices than requests")
        end if
        if (present(statuses)) then
            if (size(statuses) < size(requests)) then
                call fail("ens_waitsome", "fewer statuses than requests")
            end if
            ens_waitsome = c_waitsome(size(requests), requests, indices, &
                statuses, MPI_STATUS_SIZE)
        else
            ens_waitsome = c_waitsome(size(requests), requests, indices, &
                status_size=MPI_STATUS_SIZE)
        end if
    end function ens_waitsome

    ! Whether a message can be received on the port now (not waiting).
    logical function ens_iprobe(type, index, status)
        character(len=*), intent(in) :: type
        integer, intent(in) :: index
        type(MPI_Status), intent(out), optional :: status

        ens_iprobe = c_iprobe(type, index, status) /= 0
    end function ens_iprobe

    ! Stop the process for a misuse only the module sees, naming it and
    ! the call as libensemble does; an exit without ens_finalize, which
    ! 'ensemble run' reports with these words.
    subroutine fail(call, why)
        character(len=*), intent(in) :: call, why
        type(ens_self_t) :: me

        me = ens_self()
        flush (6)
        write (0, '(a,a,a,a,a)') me%name, ": ", call, ": ", why
        flush (0)
        call c_exit(70_c_int)
    end subroutine fail

    ! The port a received message came by: its index (0 for no port's
    ! message), and its type in type when given.
    integer function ens_port_of(status, type)
        type(MPI_Status), intent(in) :: status
        character(len=:), allocatable, intent(out), optional :: type
        type(c_ptr) :: t

        ens_port_of = c_port_of(status, t)
        if (present(type)) type = from_c(t)
    end function ens_port_of

    ! Wait until every process has called it.
    subroutine ens_barrier()
        call c_barrier()
    end subroutine ens_barrier

end module ensemble
