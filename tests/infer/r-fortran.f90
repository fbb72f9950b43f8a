! r-fortran.f90 -- Fortran: named as not read, with the reason.
program r
    use ensemble
    call ens_init()
    call ens_finalize()
end program r
