// Throws and catches five exceptions: libstdc++'s libstdcxx:throw and
// libstdcxx:catch markers fire five times each (the sdt_libstdcxx test).
#include <stdexcept>

int main()
{
	int caught = 0;

	for (int i = 0; i < 5; i++) {
		try {
			throw std::runtime_error("thrown");
		} catch (const std::exception &) {
			caught++;
		}
	}
	return caught == 5 ? 0 : 1;
}
