/** Where and how traces are exported (OpenTelemetry, OTLP over HTTP). */
export interface TracingConfig {
  /** The OTLP/HTTP traces URL (`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`). */
  tracesUrl: string;
  /** Sent with every export, e.g. a collector's credentials. */
  headers: Record<string, string>;
  serviceName: string;
  /** The share of new traces kept (0..1); a request that arrives sampled or not keeps its decision. */
  sampleRatio: number;
}
