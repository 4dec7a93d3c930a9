#!/bin/sh
# Instructions per call of one bench row once compiled (docs/performance.md, "Counting
# instructions"). Needs valgrind, and a build of bench/ (npm run bench:stages builds it):
#   sh bench/instructions.sh stages/add/6 20000 60000
# Runs build/bench/profile.js with N1 and N2 calls under callgrind (node --predictable
# --single-threaded: no background threads), sums each run's instructions by the symbol they ran
# in, and prints, per call between N1 and N2: V8's garbage collector, its compiler and parser, and
# the rest (JavaScript, builtins, the runtime: the program's own work).
set -eu
row=$1; n1=$2; n2=$3
out=build/instructions
mkdir -p "$out"
GC='Heap|Scavenge|Marking|MarkCompact|Sweep|Evacuat|RememberedSet|SlotSet|PagedSpace|NewSpace|SemiSpace|MemoryAllocator|Page::|MemoryChunk|GCTracer|WeakObjects|EphemeronTable|ObjectVisitor|BodyDescriptor|MinorMC|heap::base|cppgc|Compactor|RecordMigrated|Mark(ed|ing)'
COMPILE='v8::internal::(compiler|maglev|baseline|interpreter|Parser|PreParser|Scanner|Ast|Scope|DeclarationScope|Zone|Compiler|Bytecode|FuncNameInferrer|Utf16CharacterStream|ParserBase|Variable|Expression|Statement|SharedFunctionInfo::|turboshaft|wasm|OptimizedCompilation|PipelineCompilationJob|SourcePosition|Factory::NewBytecode|CodeGenerator|Assembler|RegExpCompiler|RegExpBytecode|regexp)|Scanner::|AstValueFactory|compiler::|AdvanceUntil|ZoneList|base::Vector<unsigned char const>\)|BackgroundCompile|LazyCompile|CompileLazy'

# The self cost of every function of one callgrind file: "gc compile rest".
split() {
  callgrind_annotate --threshold=100 "$1" | grep -E '^ *[0-9,]+ \( *[0-9.]+%\) ' | grep -v 'PROGRAM TOTALS' |
    awk -v gc="$GC" -v compile="$COMPILE" '{
      n = $1; gsub(",", "", n)
      if ($0 ~ gc) g += n; else if ($0 ~ compile) c += n; else r += n
    } END { printf "%.0f %.0f %.0f\n", g, c, r }'
}

for n in "$n1" "$n2"; do
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$out/$n.out" \
    node --predictable --single-threaded build/bench/profile.js "$row" "${n}x" >/dev/null 2>&1
done
split "$out/$n1.out" > "$out/$n1.split"
split "$out/$n2.out" > "$out/$n2.split"
paste "$out/$n1.split" "$out/$n2.split" | awk -v row="$row" -v d=$((n2 - n1)) '{
  printf "%s, instructions per call: rest %.0f, gc %.0f, compile %.0f\n", row, ($6 - $3) / d, ($4 - $1) / d, ($5 - $2) / d
}'
