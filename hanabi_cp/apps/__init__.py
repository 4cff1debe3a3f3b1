"""Work built on both wings: the cross-checking harness (``harness/``), the studies
(``studies/``), the reduction's round trip (``roundtrip``), the benchmark families
(``families``, ``family_formats``) and the seeded generators (``generators``)."""
