
func.func @sampla_observable_argument(%o: !quant5m.o