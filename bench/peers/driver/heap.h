// heap.h: heap accounting. heap.cpp interposes the C allocation functions
// (malloc and friends) in the executable and counts the usable size of every
// live block; operator new goes through malloc in libstdc++, and the peer
// libraries call malloc, so everything on the heap is counted.
#ifndef COLLIDE_PEERS_HEAP_H
#define COLLIDE_PEERS_HEAP_H

#include <cstddef>

namespace peers::heap {

// inUse returns the bytes of heap in use now.
std::size_t inUse();

// peak returns the largest value inUse has had since the last resetPeak.
std::size_t peak();

// resetPeak restarts the peak at the current use.
void resetPeak();

}  // namespace peers::heap

#endif  // COLLIDE_PEERS_HEAP_H
