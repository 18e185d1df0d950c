tile.kernel @vector_add(%A: !tile.buffer<?xf32, global>,
                        %B: !tile.buffer<?xf32, global>,
                        %C: !tile.buffer<?xf32, global>)
    grid(%bx) = [ceildiv(%A[0], 1024)] threads(256) {
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %bx, %c1024 : index
  %a = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %b = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  %c = tile.alloc_fragment : !tile.buffer<1024xf32, fragment>
  tile.copy %A[%offset] to %a : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.copy %B[%offset] to %b : !tile.buffer<?xf32, global> to !tile.buffer<1024xf32, fragment>
  tile.parallel (%i) in [1024] {
    %x = tile.load %a[%i] : !tile.buffer<1024xf32, fragment>
    %y = tile.load %b[%i] : !tile.buffer<1024xf32, fragment>
    %sum = arith.addf %x, %y : f32
    tile.store %sum, %c[%i] : !tile.buffer<1024xf32, fragment>
  }
  tile.copy %c to %C[%offset] : !tile.buffer<1024xf32, fragment> to !tile.buffer<?xf32, global>
}
