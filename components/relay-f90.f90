! relay-f90.f90 -- Distribution of Maximum (Cotronis) in Fortran: the
! relay of relay.c through the module 'ensemble'.  It takes the maximum of
! its Client ports, exchanges it on its Prop ports and sends the global
! maximum back to its clients; the same ports and behaviour as relay.c
! (components/relay.pcg), so a script picks it per process:
! 'relay[1..3] : exec "relay-f90";'.
program relay
    use mpi_f08
    use ensemble
    implicit none
    integer :: i, v, vmax

    call ens_init()

    vmax = 0
    do i = 1, ens_ports("Client")
        call ens_recv("Client", i, v, 1, MPI_INTEGER)
        if (i == 1 .or. v > vmax) vmax = v
    end do
    do i = 1, ens_ports("Prop")
        call ens_send("Prop", i, vmax, 1, MPI_INTEGER)
    end do
    do i = 1, ens_ports("Prop")
        call ens_recv("Prop", i, v, 1, MPI_INTEGER)
        if (v > vmax) vmax = v
    end do
    do i = 1, ens_ports("Client")
        call ens_send("Client", i, vmax, 1, MPI_INTEGER)
    end do

    call ens_finalize()
end program relay
