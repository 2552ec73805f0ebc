// Catalyst loads a plugin path with both --load-pass-plugin and
// --load-dialect-plugin and already has its own `quantum` dialect, so the pass
// plugin's dialect entry point must register no `quantum` dialect.
//
// Loaded only as a dialect plugin, QShapePassPlugin.so leaves `quantum`
// unknown: pretty quantum text does not parse...
// RUN: not %upstream_mlir_opt --load-dialect-plugin=%pass_plugin %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// NODIALECT: pass-plugin-no-dialect.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}quantum{{.*}}unregistered dialect
//
// ...even with both entry points loaded as Catalyst does.
// RUN: not %upstream_mlir_opt --load-pass-plugin=%pass_plugin --load-dialect-plugin=%pass_plugin %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODIALECT
//
// Next to a host that has a `quantum` dialect (here: qshape's dialect plugin,
// standing in for Catalyst's), loading the pass plugin as a dialect plugin
// too causes no namespace clash, and the quantum ops stay the host's.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin --load-dialect-plugin=%pass_plugin \
// RUN:   --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-stats{output=-})' %s \
// RUN:   | FileCheck %s --check-prefix=HOST
// HOST: "gates": 1,
// HOST: %{{.*}} = quantum.custom "Hadamard"() %arg0 : !quantum.bit

func.func @f(%q: !quantum.bit) -> !quantum.bit {
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  return %h : !quantum.bit
}
