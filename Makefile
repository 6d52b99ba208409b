# The two commands of the README:
#   make run    set up, build, index a repository (REPO, default: this one), print the summary,
#               then answer a context query on it (TASK) within a token budget (TOKENS)
#   make test   set up, build, run every test
#   make sanitize  every test again, built with AddressSanitizer and UBSan (CI runs both)
BUILD ?= build
REPO ?= .
JOBS ?= $(shell nproc)
TASK ?= where are files walked and parsed into symbols for the index
TOKENS ?= 2000

.PHONY: all setup build run test sanitize clean
all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: setup $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/comp index --root $(REPO)
	$(BUILD)/comp query --root $(REPO) --max-tokens $(TOKENS) --no-refresh "$(TASK)"

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

SAN_BUILD ?= build-asan
sanitize: setup
	cmake -S . -B $(SAN_BUILD) -G Ninja -DCOMP_SANITIZE=ON -DCOMP_BUILD_BENCH=OFF
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
