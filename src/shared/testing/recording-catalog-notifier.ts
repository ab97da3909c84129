import { CatalogChangeNotifier } from '../catalog-events.js';

/** Keeps the source ids (and group and interceptor names) the other processes would have been told about, in order. */
export class RecordingCatalogNotifier extends CatalogChangeNotifier {
  readonly notified: string[] = [];
  readonly groups: string[] = [];
  readonly interceptors: string[] = [];

  async notifyInterceptorChanged(interceptorName: string): Promise<void> {
    this.interceptors.push(interceptorName);
  }

  async notifyGroupChanged(groupName: string): Promise<void> {
    this.groups.push(groupName);
  }

  async notifyOthers(sourceId: string): Promise<void> {
    this.notified.push(sourceId);
  }
}
