// BullMQ's OpenTelemetry adapter (bullmq-otel): producer and consumer spans, the producer's
// trace context carried in the job. Only handed to queues and workers when tracing is on.
import { BullMQOtel } from 'bullmq-otel';
import { telemetryState } from './state.ts';

export function bullmqTelemetry(): BullMQOtel | undefined {
  return telemetryState.tracing ? new BullMQOtel({ tracerName: 'bullmq' }) : undefined;
}
