/** The PNG encoder lives with the hub's camera (the calibration page's live frame); the simulator's pictures use the same. */
export { encodePng } from '../../../hub/camera/png.ts';
