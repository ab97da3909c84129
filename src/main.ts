import 'reflect-metadata';
import { runToolplane } from './run-toolplane.js';

void runToolplane();
