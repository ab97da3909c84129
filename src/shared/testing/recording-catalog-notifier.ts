import { CatalogChangeNotifier } from '../catalog-events.js';

/** Keeps the source ids the other processes would have been told about, in order. */
export class RecordingCatalogNotifier extends CatalogChangeNotifier {
  readonly notified: string[] = [];

  async notifyOthers(sourceId: string): Promise<void> {
    this.notified.push(sourceId);
  }
}
