"""How a command runs, below every solver and format: the one deadline of
``--time-limit`` (``deadline``), Ctrl-C and SIGTERM (``interrupts``), size guards
checked before allocating (``limits``), worker pools and dask (``executors``),
external solver binaries (``external``) and pauses of the garbage collector
around bulk builders (``nogc``)."""
